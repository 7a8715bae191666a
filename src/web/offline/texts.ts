/** What the app says about working offline. */
export const offlineTexts = {
  updateReady: 'A new version is ready.',
  reload: 'Reload',
  queued:
    'No connection: the assessment is kept on this device and will upload by itself when the connection returns.',
  queueFailed: 'The assessment could not be kept on this device.',
  uploaded: (count: number) =>
    count === 1
      ? 'An assessment saved offline was uploaded.'
      : `${count} assessments saved offline were uploaded.`,
  waitingTitle: 'Waiting to upload',
  waitingStatus: 'Waiting to upload',
  refusedStatus: 'Not accepted by the server',
  refusedHelp: 'Open it to correct it and save again, or discard it.',
  genderDiffersHelp:
    'Link it to the patient with this number anyway, or change the number (the assessment opens at step 1).',
  open: 'Open',
  discard: 'Discard',
  discardTitle: 'Discard this assessment?',
  discardBody:
    'It has not reached the server. Discarding removes it from this device and it cannot be recovered.',
  cancel: 'Cancel',
  badge: (count: number) => `${count} waiting to upload`,
  offlineTitle: 'Offline',
  historyOffline:
    'The history comes from the server and shows again when the connection returns. Assessments saved on this device are listed under Waiting to upload.',
  needsConnection: 'This needs a connection to the server. You are offline.',
  offlineBanner:
    'You are offline. Assessments you save are kept on this device until the connection returns.',
  signOutTitle: 'Assessments are waiting to upload',
  signOutBody:
    'These assessments have not reached the server yet. They stay on this device, sealed for you, and upload when you sign in again with a connection:',
  signOutAnyway: 'Sign out anyway',
  stayTitle: 'Stay signed in',
  unlockTitle: 'Unlock what is kept on this device',
  unlockBody:
    'Assessments and patient records kept on this device are sealed with your password. Enter it to open them.',
  lockedCount: (count: number) =>
    count === 1
      ? 'An assessment waits here to upload.'
      : `${count} assessments wait here to upload.`,
  password: 'Password',
  unlock: 'Unlock',
  wrongPassword: 'This password does not open what is kept on this device.',
  lockedQueue:
    'What is kept on this device is locked. Enter your password under "Unlock what is kept on this device", then save again.',
  keptPatients: 'Offline: patients kept on this device.',
  noKeptPatient: 'Offline: no patient kept on this device has a number or name starting with this.',
  useNumber: (number: string) => `Use patient number ${number}`,
  byNumberHelp: (number: string, linkWhateverGender: boolean) =>
    linkWhateverGender
      ? `When the assessment uploads, it is linked to the patient with the number ${number}, whatever their recorded gender. The name and date of birth are optional.`
      : `When the assessment uploads, it is linked to the patient with the number ${number} if their recorded gender agrees; if nobody has this number, a new patient record is made with it. The name and date of birth are optional.`,
  linkAnyway: 'Link anyway',
  changeNumber: 'Change the number',
  openedAsNew:
    'The assessment was signed off or deleted before these changes reached the server. They open as a new assessment: save it to keep them.',
} as const;
