// Business constants and limits of spec §9, used by server and web alike.
export const limits = {
  metadataAutosaveMs: 2000,
  commandPollMs: 1000,
  verifyRedirectMs: 9000,
  projectName: 64,
  ftpServerName: 64,
  ftpServerField: 256,
  /** Parallel connections to one destination server: the default and the most a form may set. */
  ftpServerConnectionsDefault: 4,
  ftpServerConnectionsMax: 16,
  metadataValue: 1024,
  portMin: 1,
  portMax: 65535,
  passwordMin: 5,
  configFileBytes: 100_000,
  configFileExtensions: ['xmp', 'json'],
  calendarMin: '2022-01-01',
  calendarMax: '2030-01-01',
  calendarDefaultStart: '2022-01-01',
  calendarPageSize: 200,
  /** The largest `offset` of `POST calendar/entries` (a range holds far fewer entries). */
  calendarListMaxOffset: 1_000_000,
  /** Spec §9: flag bit ids 0 to 16 (the default list); a team's own flags may use bits up to 30 (issue 27). */
  flagBitMax: 30,
  specFlagBitMax: 16,
  flagName: 40,
  metadataCategories: 5,
  drawerMin: 120,
  drawerMax: 400,
  drawerDefault: 200,
  drawerBorder: 3,
  confirmDialogWidth: 400,
  // Not in the spec, chosen for a professional product.
  nameField: 100,
  emailField: 254,
  passwordMax: 200,
  companyName: 100,
  folderName: 100,
  accreditationNumber: 64,
  rememberMeDays: 30,
  verifyTokenHours: 48,
  resetTokenHours: 1,
  invitationTokenDays: 14,
  // Calendar (spec §5 "Event dialog", "Event defaults"; the rest chosen for the product).
  calendarInvitationTokenDays: 14,
  eventDefaultHours: 2,
  eventDefaultTime: '17:00',
  urgencyMin: 1,
  urgencyMax: 8,
  calendarListMaxDays: 400,
  calendarText: 256,
  calendarDescription: 4000,
  /** External calendars (feeds) a team may have, and entries imported from them all together. */
  externalCalendarsPerTeam: 20,
  importedEntriesPerTeam: 50_000,
} as const;

export const ftpProtocols = ['ftp', 'ftps', 'sftp'] as const;
export type FtpProtocol = (typeof ftpProtocols)[number];
