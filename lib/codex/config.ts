// What a Codex home's config.toml says of the model provider its threads use. Codex
// resumes a thread only under the provider the rollout names ("Cannot change this
// thread's model provider from `openai` to `…` on resume"), so a rollout written for a
// Codex home names the provider that home is configured with: the top-level
// `model_provider`, else the built-in `openai`; a legacy profile selector (`profile =
// "NAME"` with `[profiles.NAME]`, which clients before 0.169 read and 0.169 refuses)
// first. A profile 0.169 takes at run time (`--profile NAME`, NAME.config.toml over
// config.toml) is in no file: tx-native --model-provider names its provider. The file is
// the person's own and small; it is read as a regular file, bounded, and parsed by
// smol-toml (docs/layout.md, Libraries), whose tables have no prototype.
import path from 'node:path';
import { parse } from 'smol-toml';
import { readSmallFile } from '../core/input/regular-file.js';

/** The provider Codex uses when its configuration names none. */
export const DEFAULT_PROVIDER = 'openai';

/** A config.toml larger than this is not a configuration a person wrote. */
const CONFIG_LIMIT = 1 << 20;

/** What the configuration says of the provider, and why it could not say it. */
export interface ConfiguredProvider {
  /** The provider id, or null when the configuration names none (or cannot be read). */
  provider: string | null;
  /** Where it came from, for a message (`config.toml profile "work"`). */
  from: string;
  /** Why the configuration could not be read or its value not used; null when it could. */
  problem: string | null;
}

/** A table's own value of a key (tables from smol-toml have no prototype; a key the person named is looked up as their own). */
function own(table: unknown, key: string): unknown {
  return table !== null && typeof table === 'object' && !Array.isArray(table) && Object.hasOwn(table, key) ? (table as Record<string, unknown>)[key] : undefined;
}

/** The model provider the Codex home `config` (its directory) is configured with. */
export function configuredProvider(config: string): ConfiguredProvider {
  const file = path.join(config, 'config.toml');
  let doc: unknown;
  try {
    doc = parse(readSmallFile(file, CONFIG_LIMIT).toString('utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return { provider: null, from: file, problem: null };
    const why = e.code === 'ENOTDIR' || e.code === 'EACCES' || e.code === 'ENOTREG' || e.code === 'EFBIG' ? e.message : `not TOML: ${e.message.split('\n')[0]}`;
    return { provider: null, from: file, problem: `${file}: cannot read it (${why})` };
  }
  const profile = own(doc, 'profile');
  if (typeof profile === 'string' && profile !== '') {
    const chosen = own(own(own(doc, 'profiles'), profile), 'model_provider');
    const from = `${file}, profile ${JSON.stringify(profile)}`;
    if (typeof chosen === 'string' && chosen !== '') return { provider: chosen, from, problem: null };
    if (chosen !== undefined) return { provider: null, from, problem: `${from}: model_provider is not a provider id` };
  }
  const top = own(doc, 'model_provider');
  if (typeof top === 'string' && top !== '') return { provider: top, from: file, problem: null };
  if (top !== undefined) return { provider: null, from: file, problem: `${file}: model_provider is not a provider id` };
  return { provider: null, from: file, problem: null };
}

/**
 * The provider a rollout names: the one given (tx-native --model-provider); else, written
 * for a Codex home (`config`), the one that home is configured with, or openai; else (no
 * home, standard output) the one the session recorded, or openai. Never an empty one.
 * `problem` says why the home's configuration was not used.
 */
export function rolloutProvider(given: string | undefined, config: string | undefined, recorded: string | undefined): { provider: string; problem: string | null } {
  if (given !== undefined && given !== '') return { provider: given, problem: null };
  if (config === undefined) return { provider: recorded !== undefined && recorded !== '' ? recorded : DEFAULT_PROVIDER, problem: null };
  const configured = configuredProvider(config);
  if (configured.provider !== null) return { provider: configured.provider, problem: null };
  return { provider: DEFAULT_PROVIDER, problem: configured.problem && `${configured.problem}; the session names the provider ${DEFAULT_PROVIDER} (--model-provider names another)` };
}
