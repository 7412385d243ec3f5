// The lines the pi tests sweep: every recorded and hand-written pi session line, and the
// lines of the other harnesses pi's detection must leave alone.
import { readFileSync } from 'node:fs';
import { jsonlFiles } from '../harness/fixtures.js';
import { corpusFiles, repo } from '../helpers.js';

/** The parsed JSON objects of every line of some files, with where each came from. */
export function objectsOf(files: string[]): { where: string; line: any }[] {
  const out: { where: string; line: any }[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (!text.trim()) return;
        try {
          out.push({ where: `${file}:${i + 1}`, line: JSON.parse(text) });
        } catch {
          // not a JSON line: no harness's
        }
      });
  }
  return out;
}

/** Every pi session file of the fixtures: recorded by the real client, hand-written, and public. */
export function piFiles(): string[] {
  return [...jsonlFiles(repo('fixtures', 'recorded-pi')), ...jsonlFiles(repo('fixtures', 'pi')), ...jsonlFiles(repo('fixtures', 'public-pi'))];
}

/** Claude Code and Codex files: recorded by their real clients, and the shared corpus beside the checkout (when there). */
export function otherHarnessFiles(): { claude: string[]; codex: string[] } {
  return {
    claude: [...jsonlFiles(repo('fixtures', 'recorded')), ...corpusFiles('claude-code')],
    codex: [...jsonlFiles(repo('fixtures', 'recorded-codex')), ...corpusFiles('codex')],
  };
}
