// The user guides: README.md and the Markdown files of docs/. Tests that run an example
// of the guides look for it in all of them, so a guide can move without its example
// leaving the tests.
import { readdirSync, readFileSync } from 'node:fs';
import { repo } from './helpers.js';

/** A guide's path from the repository root, and its text. */
export interface Guide {
  path: string;
  text: string;
}

/** README.md, then every docs/*.md in name order. */
export function guides(): Guide[] {
  const paths = ['README.md', ...readdirSync(repo('docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  return paths.map((path) => ({ path, text: readFileSync(repo(path), 'utf8') }));
}

/** The first match of a pattern in the guides, with the guide that holds it; null when none does. */
export function findInGuides(pattern: RegExp): { guide: Guide; match: RegExpExecArray } | null {
  for (const guide of guides()) {
    const match = pattern.exec(guide.text);
    if (match) return { guide, match };
  }
  return null;
}
