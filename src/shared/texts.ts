/** Product texts that clinicians are trained on; kept exactly as the specification words them. */
export const productTexts = {
  systemName: 'Chronic Disease Risk Assessment System',
  systemVersion: 'v2.2',
  gateGuidelinesVersion: 'Clinical Guidelines Version 2.2',
  guidelinesVersion: 'Clinical Guidelines Version 2.0',
  authorizedOnly: 'For authorized healthcare professionals only',
} as const;

/** Friendly messages by cause (spec section 8, with decisions.md section 6). */
export const friendlyMessages = {
  network: 'Network connection issue. Please check your internet connection and try again.',
  database: 'Database connection issue. Please try again or contact your system administrator.',
  /** Not in the specification: only an administrator can make room, so trying again cannot help. */
  diskFull: "The server's disk is full. Your work was not saved. Please tell your administrator.",
  validation: 'Please check that all required fields are filled correctly.',
  auth: 'Authentication issue. Please try logging in again.',
  unexpected: 'An unexpected error occurred. Please try again or restart the application.',
} as const;
