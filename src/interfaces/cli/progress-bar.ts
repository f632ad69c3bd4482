/**
 * Progress of long CLI work on stderr. On a terminal: one bar redrawn in place. Elsewhere (CI,
 * files): a line when a stage starts, at each further 25 % and when it ends, so logs stay short.
 */
export function progressBar(write: (text: string) => void, isTty: boolean) {
  const lastQuarter = new Map<string, number>();
  return (stage: string, done: number, total: number): void => {
    const ratio = total === 0 ? 1 : done / total;
    if (isTty) {
      const width = 30;
      const filled = Math.round(ratio * width);
      write(`\r${stage.padEnd(12)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${done}/${total}${done === total ? '\n' : ''}`);
      return;
    }
    const quarter = Math.floor(ratio * 4);
    if (lastQuarter.get(stage) === quarter) return;
    lastQuarter.set(stage, quarter);
    write(`${stage}: ${done}/${total} (${Math.round(ratio * 100)}%)\n`);
  };
}
