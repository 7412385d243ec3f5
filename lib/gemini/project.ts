// Which folder of `.gemini/tmp/` holds a project's chats, found as the client finds it
// (packages/core/src/config/projectRegistry.ts): `projects.json` maps a project root to a
// short name, trusted when the `.project_root` markers of `tmp/<name>` and
// `history/<name>` (where they exist) name the same root; else a folder whose marker
// names the root; else a new name, the root's base name made a slug, with `-1`, `-2`…
// when another project holds it. The client writes `projects.json` itself the next time
// it runs there, finding the folder by its marker, so an install writes only the marker
// of a folder it makes, never the registry.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readSmallFile } from '../core/input/regular-file.js';

/** The marker file naming the project root a folder of tmp/ or history/ belongs to. */
export const PROJECT_ROOT_FILE = '.project_root';
const REGISTRY_LIMIT = 16 * 1024 * 1024;
const MARKER_LIMIT = 64 * 1024;

/** The client's short name of a project root's base name: lower case, runs of other characters as one `-`. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  );
}

/** The project roots `projects.json` under a `.gemini` folder names, with their short names (empty when it is missing or not the registry). */
export function registeredProjects(config: string): Map<string, string> {
  const out = new Map<string, string>();
  let data: unknown;
  try {
    data = JSON.parse(readSmallFile(path.join(config, 'projects.json'), REGISTRY_LIMIT).toString('utf8'));
  } catch {
    return out;
  }
  const projects = (data as { projects?: unknown } | null)?.projects;
  if (!projects || typeof projects !== 'object' || Array.isArray(projects)) return out;
  for (const [root, name] of Object.entries(projects)) if (typeof name === 'string' && /^[a-z0-9-]+$/.test(name)) out.set(root, name);
  return out;
}

/** The project root a folder's marker names (trimmed), null when there is none; undefined when it cannot be read. */
export function markerOwner(folder: string): string | null | undefined {
  try {
    return readSmallFile(path.join(folder, PROJECT_ROOT_FILE), MARKER_LIMIT).toString('utf8').trim();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/** The folders holding markers: tmp/ and history/ under a `.gemini` folder. */
function markerBases(config: string): string[] {
  return [path.join(config, 'tmp'), path.join(config, 'history')];
}

/** True when no marker of `name` names another root (a marker that cannot be read counts as another's). */
function owns(config: string, name: string, root: string): boolean {
  return markerBases(config).every((base) => {
    const owner = markerOwner(path.join(base, name));
    return owner === null || (owner !== undefined && path.resolve(owner) === root);
  });
}

/** The short name the store already has for a project root (the registry's, if its markers agree, else a folder whose marker names it), or null. */
export function knownProject(config: string, cwd: string): string | null {
  const root = path.resolve(cwd);
  const given = registeredProjects(config).get(root);
  if (given !== undefined && owns(config, given, root)) return given;
  for (const base of markerBases(config)) {
    let names: string[];
    try {
      names = readdirSync(base).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = markerOwner(path.join(base, name));
      if (typeof owner === 'string' && path.resolve(owner) === root) return name;
    }
  }
  return null;
}

/** The short name the client uses for a project root: the one the store has, else the first free slug of its base name. */
export function projectName(config: string, cwd: string): string {
  const known = knownProject(config, cwd);
  if (known !== null) return known;
  const taken = new Set(registeredProjects(config).values());
  const slug = slugify(path.basename(path.resolve(cwd)) || 'project');
  for (let n = 0; ; n++) {
    const name = n === 0 ? slug : `${slug}-${n}`;
    if (!taken.has(name) && markerBases(config).every((base) => markerOwner(path.join(base, name)) === null)) return name;
  }
}
