// --home: home-directory paths and the user names in them. A name is learned from the
// first home path it appears in (/home/NAME, /Users/NAME, C:\Users\NAME) and is masked
// wherever it stands as a word from then on (`-Users-NAME-project` store folders,
// `NAME@host` prompts); generic account names (root, runner, ubuntu…) are masked in
// paths only, as masking such words everywhere would blank ordinary text.
import { nonOverlapping, type Finding } from './scan.js';

/** The rule name --home findings carry. */
export const HOME_RULE = 'home';

const HOME_PATH = /(?:\/home\/|\/Users\/|[A-Za-z]:\\{1,2}Users\\{1,2})([A-Za-z0-9._-]+|\$[A-Za-z_][A-Za-z0-9_]*)/g;
const NOT_A_USER = new Set(['shared', 'public', 'default', 'all users', 'default user']);
const GENERIC = new Set(['root', 'user', 'users', 'runner', 'ubuntu', 'admin', 'node', 'vscode', 'codespace', 'app', 'debian', 'pi', 'ec2-user', 'home', 'guest', 'test']);
/** Learned names kept at most (a stream could name many; the earliest stay). */
const MAX_NAMES = 256;

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Finds home paths' user names, and names seen before, in texts. */
export class HomeMasker {
  private readonly names = new Set<string>();
  private namePattern: RegExp | null = null;

  /** Whether a raw line could hold something to mask. */
  mayHold(text: string): boolean {
    // Raw JSON may write '/' as '\/'.
    if (/[/\\](?:home|Users)[/\\]/.test(text)) return true;
    if (!this.namePattern) return false;
    this.namePattern.lastIndex = 0;
    return this.namePattern.test(text);
  }

  /** The user names in `text` to mask, learning new ones from its home paths. */
  find(text: string): Finding[] {
    const found: Finding[] = [];
    HOME_PATH.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = HOME_PATH.exec(text)) !== null) {
      const name = m[1];
      if (name.startsWith('$') || NOT_A_USER.has(name.toLowerCase()) || /^\.+$/.test(name)) continue;
      const start = m.index + m[0].length - name.length;
      found.push({ start, end: start + name.length, rule: HOME_RULE, secret: name });
      this.learn(name);
    }
    if (this.namePattern) {
      this.namePattern.lastIndex = 0;
      while ((m = this.namePattern.exec(text)) !== null) found.push({ start: m.index, end: m.index + m[0].length, rule: HOME_RULE, secret: m[0] });
    }
    return nonOverlapping(found);
  }

  private learn(name: string): void {
    if (this.names.has(name) || this.names.size >= MAX_NAMES || GENERIC.has(name.toLowerCase()) || name.length < 3) return;
    this.names.add(name);
    const words = [...this.names].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.namePattern = new RegExp(`(?<![A-Za-z0-9_])(?:${words.join('|')})(?![A-Za-z0-9_])`, 'g');
  }
}
