/** Lines of the recorded Gemini chat files, found by what they show (for tests that need one of a kind). */
import { readFileSync } from 'node:fs';
import { recordedGeminiChats } from '../harness/gemini/index.js';

/** The recorded chat files of a scenario. */
export function scenarioFiles(scenario: string): string[] {
  return recordedGeminiChats()
    .filter((c) => c.scenario === scenario)
    .map((c) => c.file);
}

/** The parsed lines of a scenario's chat file (the one with a conversation: the longest). */
export function scenarioLines(scenario: string): any[] {
  const files = scenarioFiles(scenario).map((f) => readFileSync(f, 'utf8'));
  if (files.length === 0) throw new Error(`no recording of ${scenario}`);
  const text = files.sort((a, b) => b.length - a.length)[0]!;
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** The first line of a scenario that `pick` accepts. */
export function recordedLine(scenario: string, pick: (line: any) => boolean): any {
  const line = scenarioLines(scenario).find(pick);
  if (line === undefined) throw new Error(`no such line in the ${scenario} recording`);
  return line;
}
