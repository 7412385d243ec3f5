// What the tests that run documented examples share (the man pages' and the guides'):
// which programs an example needs, so one whose program this machine lacks is skipped
// with a message, never failed.
import { spawnSync } from 'node:child_process';

/**
 * The programs an example runs that are not on `PATH`: the first word of each stage of
 * a pipeline or list. An example that needs one (GNU parallel is not on every machine)
 * is skipped with a message naming it, never failed.
 */
export function missingPrograms(command: string, PATH: string): string[] {
  const programs = new Set<string>();
  for (const stage of stages(command)) {
    const word = stage.trim().split(/\s+/)[0];
    if (word && /^[A-Za-z0-9_.-]+$/.test(word)) programs.add(word);
  }
  return [...programs].filter((p) => spawnSync('/bin/sh', ['-c', `command -v ${p}`], { env: { PATH } }).status !== 0);
}

/** A shell command cut at its unquoted `|`, `||`, `&&`, `;` and `$(`, quotes taken off. */
function stages(command: string): string[] {
  const out = [''];
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = null;
      else out[out.length - 1] += c;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '|' || c === ';' || (c === '&' && command[i + 1] === '&') || (c === '$' && command[i + 1] === '(')) {
      if (command[i + 1] === c || c === '$') i++;
      out.push('');
    } else out[out.length - 1] += c;
  }
  return out;
}
