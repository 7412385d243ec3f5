// A channel between two ends on one thread, for the main thread's share of a run on
// workers (workers.ts): what one end posts the other hears after the current task's
// synchronous work, in order, as the object itself (no copy; a buffer "transferred" is
// simply no longer touched by its sender, as serve-files.ts does with its batches).
// A MessageChannel would copy each message and wake the event loop for it: about 0.1 ms
// of the main thread per file, on stores of small files most of what it adds.
import { EventEmitter } from 'node:events';

/** One end of a LocalChannel. */
export class LocalPort extends EventEmitter {
  private other: LocalPort | null = null;
  private closed = false;

  /** Join two ends. */
  static pair(): [LocalPort, LocalPort] {
    const a = new LocalPort();
    const b = new LocalPort();
    a.other = b;
    b.other = a;
    return [a, b];
  }

  /** Hand a value to the other end (nothing once closed); `transfer` is for the shape of MessagePort's. */
  postMessage(value: unknown, _transfer?: readonly ArrayBuffer[]): void {
    const other = this.other;
    if (this.closed || !other) return;
    queueMicrotask(() => {
      if (!other.closed) other.emit('message', value);
    });
  }

  /** Close both ends: each says 'close', once. */
  close(): void {
    if (this.closed) return;
    for (const end of [this, this.other!]) {
      end.closed = true;
      queueMicrotask(() => end.emit('close'));
    }
  }
}
