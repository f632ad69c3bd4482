import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, REPOSITORY_ROOT as ROOT } from '../../support/repository-files';

// docs/architecture.md is the map of the code: every class, function or member it names in a code
// span (`DeliverWebhook`, `AttemptStart.begin`, `concludeAttempt`) is a name the code has, so a
// renamed class or a dropped port shows here instead of misleading the next reader. A name is
// camelCase or PascalCase (a plain word, a path, a constant or an environment variable is not
// one); `Class.member` checks both.
const MAPS = ['docs/architecture.md'];
const SPAN = /`([^`\n]+)`/g;
const NAME = /^([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?(?:\(\))?$/;

/** The code names a document cites in its code spans. */
export function citedNames(text: string): string[] {
  const names = new Set<string>();
  for (const [, span] of text.matchAll(SPAN)) {
    const match = NAME.exec(span.trim());
    if (!match) continue;
    for (const name of match.slice(1).filter(Boolean)) if (/[a-z]/.test(name) && /[A-Z]/.test(name)) names.add(name);
  }
  return [...names];
}

describe('the map names only what the code has', () => {
  it('finds class, function and member names in code spans, not words, paths or constants', () => {
    expect(citedNames('`DeliverWebhook` and `AttemptStart.begin()`, `concludeAttempt`, `pending`, `src/main.ts`, `WEBHOOK_RELAY_POLL_MS`, `x-api-key`')).toEqual([
      'DeliverWebhook',
      'AttemptStart',
      'concludeAttempt',
    ]);
  });

  it.each(MAPS)('%s cites only names declared in src/', (doc) => {
    const code = sourceText();
    const missing = citedNames(readFileSync(join(ROOT, doc), 'utf8')).filter((name) => !new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(code));
    expect(missing).toEqual([]);
  });
});

/** The text of every TypeScript file under src/, joined. */
function sourceText(): string {
  return filesUnder('src', (name) => /\.tsx?$/.test(name))
    .map((file) => readFileSync(join(ROOT, file), 'utf8'))
    .join('\n');
}
