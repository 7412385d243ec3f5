// The model a written session continues with. The client resumes a session with the
// model of its last user message (not its configured default), so a session from another
// harness must name one this OpenCode has: the one given (tx-native --model), else the
// `model` of the user's global config (`opencode.json` in $XDG_CONFIG_HOME/opencode, else
// ~/.config/opencode: the client's global/index.ts xdgConfig), else none (the writer then
// names the model that answered).
import os from 'node:os';
import path from 'node:path';
import { readSmallFile } from '../core/input/regular-file.js';

/** A provider and model. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

/** `PROVIDER/MODEL` as the client writes it (the model may hold more slashes); null when it is not one. */
export function parseModel(ref: string): ModelRef | null {
  const at = ref.indexOf('/');
  if (at <= 0 || at === ref.length - 1) return null;
  return { providerID: ref.slice(0, at), modelID: ref.slice(at + 1) };
}

/** The `model` of the user's global OpenCode config, or null (no file, not JSON, no model). */
export function configuredModel(env: NodeJS.ProcessEnv): ModelRef | null {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME ?? os.homedir(), '.config');
  let config: unknown;
  try {
    config = JSON.parse(readSmallFile(path.join(base, 'opencode', 'opencode.json'), 1 << 20).toString('utf8'));
  } catch {
    return null;
  }
  const model = config && typeof config === 'object' ? (config as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? parseModel(model) : null;
}
