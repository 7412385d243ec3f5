// From Common lines to a document: each session line opens a session, each message
// goes through the pairer (a call waits for its results) and out as a turn.
import { blockProblem, cleanSession, messageProblem, type CommonMessage } from '../common.js';
import type { HtmlPage } from './html.js';
import type { MarkdownDoc } from './markdown.js';
import { TurnPairer } from './pairing.js';

/** What a Common line was, when it could not be rendered as one. */
export type LineProblem = string | null;

/** Feeds Common lines into a page or a Markdown document. */
export class CommonRenderer {
  private readonly pairer: TurnPairer;

  constructor(private readonly doc: HtmlPage | MarkdownDoc) {
    this.pairer = new TurnPairer((turn) => doc.turn(turn));
  }

  /** Take one parsed Common line (`bytes`: its size, for the budget of what waits); returns what was wrong with it, or null. */
  async line(value: any, bytes = 0): Promise<LineProblem> {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a Common line (not an object), skipped';
    if (value.type === 'session') {
      await this.pairer.reset();
      const { session, problems } = cleanSession(value);
      await this.doc.session(session);
      return problems.length > 0 ? problems.join('; ') : null;
    }
    if (value.type !== 'message') return `not a Common line (type ${JSON.stringify(value.type)}), skipped`;
    const problem = messageProblem(value);
    if (problem) return `${problem}, skipped`;
    // A block the model does not know is shown as its JSON; a turn is never dropped for one.
    const odd = (value.content as unknown[]).map((b) => blockProblem(b)).find((p) => p !== null);
    await this.pairer.push(value as CommonMessage, bytes);
    return odd ? `${odd}, shown as JSON` : null;
  }

  /** Write what is held and finish the document. */
  async end(): Promise<void> {
    await this.pairer.flush();
    await this.doc.end();
  }
}
