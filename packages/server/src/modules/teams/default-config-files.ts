// Event category definitions every new team starts with (spec §3 "Event category definitions").
// The calendar reads them as team/file/{category}.json; teams edit them on the config files page.
const sport = {
  category: 'sport',
  subCategories: [
    {
      id: 'football',
      showTeams: true,
      scenes: [
        'Bundesliga',
        '2. Bundesliga',
        '3. Liga',
        'DFB-Pokal',
        'Champions League',
        'Europa League',
        'Länderspiel',
        'Frauen-Bundesliga',
        'Training',
        'Pressekonferenz',
      ],
    },
    {
      id: 'handball',
      showTeams: true,
      scenes: ['Handball-Bundesliga', 'DHB-Pokal', 'EHF Champions League', 'Länderspiel'],
    },
    {
      id: 'basketball',
      showTeams: true,
      scenes: ['easyCredit BBL', 'BBL-Pokal', 'EuroLeague', 'Länderspiel'],
    },
    { id: 'icehockey', showTeams: true, scenes: ['DEL', 'DEL2', 'Länderspiel', 'WM'] },
    { id: 'tennis', showTeams: false, scenes: ['ATP', 'WTA', 'Davis Cup', 'Grand Slam'] },
    { id: 'motorsport', showTeams: false, scenes: ['Formel 1', 'DTM', 'MotoGP', 'Rallye'] },
    {
      id: 'wintersport',
      showTeams: false,
      scenes: ['Ski alpin', 'Biathlon', 'Skispringen', 'Langlauf', 'Bob/Rodeln'],
    },
    {
      id: 'athletics',
      showTeams: false,
      scenes: ['Meeting', 'Deutsche Meisterschaften', 'EM', 'WM', 'Marathon'],
    },
    { id: 'cycling', showTeams: false, scenes: ['Etappe', 'Eintagesrennen', 'Bahnradsport'] },
    { id: 'other', showTeams: false, scenes: ['Wettkampf', 'Pressekonferenz', 'Porträt'] },
  ],
};

const news = {
  category: 'news',
  subCategories: [
    {
      id: 'politics',
      showTeams: false,
      scenes: ['Bundestag', 'Landtag', 'Pressekonferenz', 'Parteitag', 'Staatsbesuch', 'Wahl'],
    },
    {
      id: 'economy',
      showTeams: false,
      scenes: ['Hauptversammlung', 'Messe', 'Bilanz-Pressekonferenz', 'Streik'],
    },
    {
      id: 'culture',
      showTeams: false,
      scenes: ['Premiere', 'Konzert', 'Festival', 'Preisverleihung', 'Ausstellung'],
    },
    { id: 'society', showTeams: false, scenes: ['Gala', 'Roter Teppich', 'Empfang', 'Porträt'] },
    { id: 'local', showTeams: false, scenes: ['Demonstration', 'Feuerwehr', 'Polizei', 'Unfall', 'Wetter'] },
  ],
};

export const defaultConfigFiles: Array<{ name: string; content: string }> = [
  { name: 'sport.json', content: `${JSON.stringify(sport, null, 2)}\n` },
  { name: 'news.json', content: `${JSON.stringify(news, null, 2)}\n` },
];
