// Where a Claude Code store is: the config directory and the projects/ tree inside.
import path from 'node:path';

/** The config directory: $CLAUDE_CONFIG_DIR when set and non-empty, else $HOME/.claude (null without either). */
export function configDir(env: NodeJS.ProcessEnv): string | null {
  const dir = env.CLAUDE_CONFIG_DIR;
  if (dir !== undefined && dir !== '') return dir;
  const home = env.HOME;
  if (home === undefined || home === '') return null;
  return path.join(home, '.claude');
}

/** The sessions root, `<config>/projects` (null when no config directory can be named). */
export function projectsRoot(env: NodeJS.ProcessEnv): string | null {
  const dir = configDir(env);
  return dir === null ? null : path.join(dir, 'projects');
}

/** The plugin registry file, `<config>/plugins/installed_plugins.json`. */
export function pluginRegistryPath(config: string): string {
  return path.join(config, 'plugins', 'installed_plugins.json');
}

