// What a tool must undo when it is stopped by a signal: an interrupted install removes
// its temporary files before the process goes. Handlers are installed only while there
// is something to undo, so an idle tool keeps the default behaviour of each signal.
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const undos = new Set<() => void>();

function stop(signal: (typeof SIGNALS)[number]): void {
  for (const undo of [...undos]) {
    try {
      undo();
    } catch {
      // The others still run: what one cannot remove must not keep the rest behind.
    }
  }
  undos.clear();
  // The status a shell gives a process ended by the signal: 130 for SIGINT, 143 for SIGTERM.
  process.exit(128 + constants.signals[signal]);
}

/** Run `undo` (synchronously) if SIGINT, SIGTERM or SIGHUP arrives, then exit 128 + the signal's number; returns the call that cancels it. */
export function undoOnSignal(undo: () => void): () => void {
  if (undos.size === 0) for (const signal of SIGNALS) process.on(signal, stop);
  undos.add(undo);
  return () => {
    if (!undos.delete(undo) || undos.size > 0) return;
    for (const signal of SIGNALS) process.off(signal, stop);
  };
}

/** Whether SIGINT, SIGTERM or SIGHUP has a handler: a blocking read or write would hold it back until the call returns. */
export function signalsHandled(): boolean {
  return SIGNALS.some((signal) => process.listenerCount(signal) > 0);
}
