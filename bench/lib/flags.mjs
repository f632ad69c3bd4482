// The command-line flags of the bench's tools: `--name` or `--name value`, nothing else. Pure.

/**
 * The flags given, by name. `known` lists the names a tool takes, `withValue` those followed by
 * a value; anything else is refused through `fail(message)` (the tool's own error).
 */
export function readFlags(argv, { known, withValue, optionsFile, fail }) {
  const given = new Map();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || !known.has(name)) throw fail(`unknown option ${argv[i]} (see the head of ${optionsFile})`);
    if (withValue.has(name)) {
      if (i + 1 >= argv.length) throw fail(`--${name} needs a value`);
      given.set(name, argv[++i]);
    } else given.set(name, true);
  }
  return given;
}
