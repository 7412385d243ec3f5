// Which provider and API the replies of a written session name. pi sends a reply's
// thinking back as thinking only to the provider, API and model that wrote it, and
// picks the model a resumed session goes on with from the provider it names; so the
// provider is the one the target pi is set up to reach the model through: the one asked
// for (tx-native --model-provider), else the provider of the agent directory's
// models.json that lists the model, else settings.json's default provider when its
// default model is this one, else the one the model's name suggests among pi's own.
import path from 'node:path';
import { readSmallFile } from '../core/input/regular-file.js';

/** The provider and API a reply names. */
export interface ReplySource {
  provider: string;
  api: string;
}

// models.json and settings.json are small: a larger one is not read.
const CONFIG_LIMIT = 4 << 20;

/** The provider a model name suggests, as pi names its built-in ones; "unknown" when it suggests none. */
export function providerOf(model: string | undefined): string {
  if (model === undefined) return 'unknown';
  if (/^claude/i.test(model)) return 'anthropic';
  if (/^(gpt|o\d|codex|chatgpt)/i.test(model)) return 'openai';
  if (/^gemini/i.test(model)) return 'google';
  return 'unknown';
}

/** The API pi's built-in provider of that name speaks. */
export function apiOf(provider: string): string {
  if (provider === 'openai') return 'openai-responses';
  if (provider === 'google') return 'google-generative-ai';
  return 'anthropic-messages';
}

/** A JSON object file of the agent directory, or null when it is not there or not one. */
function configFile(config: string, name: string): Record<string, any> | null {
  try {
    const v = JSON.parse(readSmallFile(path.join(config, name), CONFIG_LIMIT).toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The custom providers of models.json, each with its API and its models' ids and APIs. */
function customProviders(config: string): { name: string; api: string | null; models: { id: string; api: string | null }[] }[] {
  const providers = configFile(config, 'models.json')?.providers;
  if (!providers || typeof providers !== 'object' || Array.isArray(providers)) return [];
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  return Object.entries(providers).map(([name, p]: [string, any]) => ({
    name,
    api: str(p?.api),
    models: Array.isArray(p?.models) ? p.models.filter((m: any) => typeof m?.id === 'string').map((m: any) => ({ id: m.id, api: str(m.api) })) : [],
  }));
}

/** Where the replies of `model` say they came from, by the rules above (`config`: the target agent directory, when known). */
export function replySource(model: string, asked: string | undefined, config: string | undefined): ReplySource {
  const custom = config === undefined ? [] : customProviders(config);
  const apiIn = (name: string) => {
    const p = custom.find((c) => c.name === name);
    return p?.models.find((m) => m.id === model)?.api ?? p?.api ?? apiOf(name);
  };
  if (asked !== undefined && asked !== '') return { provider: asked, api: apiIn(asked) };
  const listing = custom.find((c) => c.models.some((m) => m.id === model));
  if (listing) return { provider: listing.name, api: apiIn(listing.name) };
  const settings = config === undefined ? null : configFile(config, 'settings.json');
  if (settings && settings.defaultModel === model && typeof settings.defaultProvider === 'string' && settings.defaultProvider !== '') {
    return { provider: settings.defaultProvider, api: apiIn(settings.defaultProvider) };
  }
  const guessed = providerOf(model);
  return { provider: guessed, api: apiOf(guessed) };
}
