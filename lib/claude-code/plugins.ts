// The plugin registry, <config>/plugins/installed_plugins.json. Recent CLIs write
// {"version":2,"plugins":{"name@marketplace":[{…install…}]}}, older ones one object
// per plugin instead of a list. stream-json picks `plugins` and hands over one
// plugin at a time, so a large registry is never held whole. stream-json is loaded
// when a registry is read: it is two dozen modules, and only tx-ls --plugins needs it.
import { regularReadStream } from '../core/input/regular-file.js';
import { pipeline } from 'node:stream/promises';

/** One installation of a plugin, as tx-ls --plugins prints it. */
export interface PluginInstall {
  /** The registry key, `name@marketplace`. */
  plugin: string;
  name: string;
  marketplace: string | null;
  scope: string | null;
  project_path: string | null;
  install_path: string | null;
  version: string | null;
  installed_at: string | null;
  last_updated: string | null;
  git_commit_sha: string | null;
  is_local: boolean | null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** One registry entry (an object per installation) as a PluginInstall. */
export function pluginInstall(key: string, entry: Record<string, unknown>): PluginInstall {
  const at = key.lastIndexOf('@');
  return {
    plugin: key,
    name: at > 0 ? key.slice(0, at) : key,
    marketplace: at > 0 ? key.slice(at + 1) : null,
    scope: str(entry.scope),
    project_path: str(entry.projectPath),
    install_path: str(entry.installPath),
    version: str(entry.version),
    installed_at: str(entry.installedAt),
    last_updated: str(entry.lastUpdated),
    git_commit_sha: str(entry.gitCommitSha),
    is_local: typeof entry.isLocal === 'boolean' ? entry.isLocal : null,
  };
}

/** Call `each` for every installation in the registry file, in file order; rejects on unreadable or broken JSON. */
export async function readPluginRegistry(file: string, each: (p: PluginInstall) => Promise<void>): Promise<void> {
  const [{ default: pick }, { default: streamObject }] = await Promise.all([import('stream-json/filters/pick.js'), import('stream-json/streamers/stream-object.js')]);
  await pipeline(regularReadStream(file), pick.withParserAsStream({ filter: 'plugins' }), streamObject.asStream(), async (source: AsyncIterable<{ key: string; value: unknown }>) => {
    for await (const { key, value } of source) {
      const entries = Array.isArray(value) ? value : [value];
      for (const entry of entries) if (entry && typeof entry === 'object' && !Array.isArray(entry)) await each(pluginInstall(key, entry as Record<string, unknown>));
    }
  });
}
