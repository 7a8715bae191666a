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
} as const;
