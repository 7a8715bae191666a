import readline from 'node:readline';

/**
 * Reads one line from standard input: at a terminal with a prompt and without echo, otherwise
 * (a pipe, a script) as it comes.
 */
export async function readSecret(
  stdin: NodeJS.ReadStream,
  prompt: NodeJS.WritableStream,
  question: string,
): Promise<string> {
  if (stdin.isTTY) {
    prompt.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    return new Promise((resolve, reject) => {
      let secret = '';
      const onData = (chunk: string) => {
        for (const character of chunk) {
          if (character === '\r' || character === '\n') {
            finish();
            resolve(secret);
            return;
          }
          if (character === '\u0003') {
            finish();
            reject(new Error('Cancelled'));
            return;
          }
          if (character === '\u007f' || character === '\b') secret = secret.slice(0, -1);
          else secret += character;
        }
      };
      const finish = () => {
        stdin.off('data', onData);
        stdin.setRawMode(false);
        stdin.pause();
        prompt.write('\n');
      };
      stdin.on('data', onData);
    });
  }
  const lines = readline.createInterface({ input: stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}
