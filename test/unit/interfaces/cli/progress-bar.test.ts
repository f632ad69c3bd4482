import { progressBar } from '../../../../src/interfaces/cli/progress-bar';

describe('progress bar', () => {
  it('redraws one line on a terminal and ends it when the stage is done', () => {
    const out: string[] = [];
    const bar = progressBar((text) => out.push(text), true);
    bar('sessions', 0, 10);
    bar('sessions', 5, 10);
    bar('sessions', 10, 10);
    expect(out[1]).toBe('\rsessions     [###############---------------]  50% 5/10');
    expect(out[2].endsWith('100% 10/10\n')).toBe(true);
  });

  it('prints a line per quarter elsewhere, so logs stay short', () => {
    const out: string[] = [];
    const bar = progressBar((text) => out.push(text), false);
    for (let done = 0; done <= 100; done++) bar('brands', done, 100);
    expect(out).toEqual(['brands: 0/100 (0%)\n', 'brands: 25/100 (25%)\n', 'brands: 50/100 (50%)\n', 'brands: 75/100 (75%)\n', 'brands: 100/100 (100%)\n']);
  });
});
