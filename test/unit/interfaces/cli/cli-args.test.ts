import { checkOptions, parseArgs, UsageError } from '../../../../src/interfaces/cli/cli-args';

describe('CLI arguments', () => {
  it('reads the command, options in both spellings and --json', () => {
    expect(parseArgs(['tenant:create', '--name', 'Acme Inc', '--json'])).toEqual({ command: 'tenant:create', options: { name: 'Acme Inc' }, json: true });
    expect(parseArgs(['tenant:create', '--name=A=B'])).toEqual({ command: 'tenant:create', options: { name: 'A=B' }, json: false });
  });

  it.each([[[]], [['--json']], [['x', '--name']], [['x', '--name', '--json']], [['x', 'stray']], [['x', '--a', '1', '--a', '2']]])(
    'refuses %j',
    (argv) => {
      expect(() => parseArgs(argv)).toThrow(UsageError);
    },
  );

  it('refuses unknown and missing options', () => {
    expect(() => checkOptions({ name: 'a', extra: 'b' }, ['name'])).toThrow('unknown option --extra');
    expect(() => checkOptions({}, ['name'])).toThrow('option --name is required');
    expect(() => checkOptions({ name: '' }, ['name'])).toThrow('option --name is required');
    expect(() => checkOptions({ name: 'a', title: 't' }, ['name'], ['title'])).not.toThrow();
  });
});
