// The project directory a working directory's sessions live in. Three rules are
// written down; sessions recorded from the real CLI (2.1.328) show the third:
// every UTF-16 code unit that is not an ASCII letter or digit becomes `-`, and a
// slug longer than 200 characters is cut to 200 and suffixed with `-` and a hash
// of the cwd in base 36. Lookups accept all three, since older stores may differ.
import { readdirSync } from 'node:fs';

const MAX_SLUG = 200;

/** The 32-bit string hash the CLI suffixes long slugs with (Java's String.hashCode), in base 36. */
export function slugHash(cwd: string): string {
  let h = 0;
  for (let i = 0; i < cwd.length; i++) h = ((h << 5) - h + cwd.charCodeAt(i)) | 0;
  return Math.abs(h).toString(36);
}

/** The project directory name the real CLI writes for `cwd`. */
export function projectSlug(cwd: string): string {
  const slug = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  return slug.length <= MAX_SLUG ? slug : `${slug.slice(0, MAX_SLUG)}-${slugHash(cwd)}`;
}

/** Every name a store may use for `cwd`: the real rule, `/ . \ :` to `-`, and `/` to `-`. */
export function slugVariants(cwd: string): string[] {
  const names = [projectSlug(cwd), cwd.replace(/[/.\\:]/g, '-'), cwd.replace(/\//g, '-')];
  return [...new Set(names)];
}

/** True when directory name `name` is the project directory of `cwd` by any of the rules. */
export function isProjectDirOf(name: string, cwd: string): boolean {
  if (slugVariants(cwd).includes(name)) return true;
  // A long slug's hash may come from another version's hash function: match the cut prefix.
  const full = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  return full.length > MAX_SLUG && name.startsWith(full.slice(0, MAX_SLUG) + '-') && /^[0-9a-z]+$/.test(name.slice(MAX_SLUG + 1));
}

/** The directories directly under `root` that hold sessions of `cwd` (none when root is missing). */
export function projectDirsOf(root: string, cwd: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((name) => isProjectDirOf(name, cwd)).sort();
}
