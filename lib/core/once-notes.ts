// Notes said once per run. A note about an input as a whole (`a.jsonl: native session
// lines, not records: …`) is worth reading once; on a store of 10,000 files it would be
// 10,000 lines of stderr. The first is said as it comes; the others with the same
// summary are counted and said in one line at the end: `9999 more inputs <summary>`.

/** The notes of one run that are said once, and the count of the others. */
export class OnceNotes {
  /** By summary: how many inputs had a note after the one said. */
  private readonly more = new Map<string, number>();

  constructor(private readonly say: (message: string) => void) {}

  /** Say `first` unless a note with this `others` summary was said already; else count it. */
  note(first: string, others: string): void {
    const more = this.more.get(others);
    if (more === undefined) this.say(first);
    this.more.set(others, more === undefined ? 0 : more + 1);
  }

  /** Say the counts of the notes not said: `N more inputs <others>`. */
  end(): void {
    for (const [others, n] of this.more) if (n > 0) this.say(`${n} more input${n === 1 ? '' : 's'} ${others}`);
    this.more.clear();
  }
}
