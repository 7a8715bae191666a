import fs from 'node:fs';
import { AppError } from '../server/errors.ts';

/** A JWK Set file given to `--jwks-file`, read as JSON; the service checks its keys. */
export function readJwksFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new AppError(400, 'validation_failed', `The JWK Set file ${file} cannot be read.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(400, 'validation_failed', `The JWK Set file ${file} is not JSON.`);
  }
}
