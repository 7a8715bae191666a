/** The Error ID the error screen shows (spec section 2.2): the time of the error in base 36. */
export function errorIdAt(time: Date): string {
  return `ERR-${time.getTime().toString(36).toUpperCase()}`;
}
