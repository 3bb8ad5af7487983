// The bash script GitLab Runner's shell executor generates for a list of commands: each command
// is echoed (`$ command`) and run in order, and the first failing one stops the script
// (`set -eo pipefail`). The commands come from the job's configuration; the variables are in
// the environment, never in the script, so their values are not written anywhere.

/** `'…'` quoting for bash: the text is taken literally. */
function shellQuote(text: string): string {
  return `'${text.split("'").join(`'\\''`)}'`;
}

/** The script of `commands`, started in the checkout `dir`. */
export function shellScript(commands: string[], dir: string): string {
  const lines = ['set -eo pipefail', `cd ${shellQuote(dir)}`];
  for (const command of commands) {
    lines.push(`printf '%s\\n' ${shellQuote(`$ ${command}`)}`);
    lines.push(command);
  }
  return `${lines.join('\n')}\n`;
}
