/** Word pools for the simulated world's titles. Invented names; any resemblance is coincidental. */
export const FIRST_NAMES = [
  'Alicia', 'Marcus', 'Priya', 'Daniel', 'Elena', 'Tobias', 'Grace', 'Omar', 'Hannah', 'Victor', 'Naomi', 'Rafael',
  'Sofia', 'Jonah', 'Leila', 'Gregory', 'Ines', 'Malik', 'Claire', 'Felix', 'Amara', 'Julian', 'Rosa', 'Henry',
  'Keiko', 'Samuel', 'Tessa', 'Adrian', 'Mira', 'Walter',
]
export const LAST_NAMES = [
  'Whitfield', 'Okafor', 'Brennan', 'Castillo', 'Lindqvist', 'Moreau', 'Haddad', 'Ashworth', 'Kowalski', 'Delacroix',
  'Nakamura', 'Ferreira', 'Galloway', 'Iverson', 'Mendoza', 'Pemberton', 'Quinlan', 'Rasmussen', 'Sorensen', 'Thackeray',
  'Underwood', 'Vasquez', 'Winslow', 'Yamamoto', 'Zielinski', 'Abernathy', 'Beaumont', 'Calloway', 'Drummond', 'Everhart',
]
export const STATES: readonly [name: string, code: string][] = [
  ['Arizona', 'AZ'], ['Georgia', 'GA'], ['Michigan', 'MI'], ['Nevada', 'NV'], ['Ohio', 'OH'], ['Pennsylvania', 'PA'],
  ['Wisconsin', 'WI'], ['Texas', 'TX'], ['Florida', 'FL'], ['Virginia', 'VA'], ['Colorado', 'CO'], ['Minnesota', 'MN'],
  ['New Hampshire', 'NH'], ['North Carolina', 'NC'], ['Iowa', 'IA'], ['Maine', 'ME'],
]
export const COUNTRIES: readonly [name: string, code: string][] = [
  ['Norland', 'NRL'], ['Castavia', 'CSV'], ['Belmora', 'BLM'], ['Ostrava Union', 'OSU'], ['Kestria', 'KST'],
  ['Valdoria', 'VLD'], ['Marisco', 'MRS'], ['Tellune', 'TLN'],
]
export const PARTIES = ['Progress Party', 'Civic Alliance', 'National Front', 'Green Coalition', 'Liberty Union', 'Labour Bloc']
export const TEAM_CITIES = [
  'Harbor City', 'Red Valley', 'Northgate', 'Iron Bay', 'Summit', 'Lakeshore', 'Granite Falls', 'Westbrook', 'Silver Springs',
  'Pine Ridge', 'Crescent', 'Stonebridge', 'Brookhaven', 'Eastport', 'Fairhaven', 'Oakmont',
]
export const TEAM_MASCOTS = ['Hawks', 'Comets', 'Wolves', 'Mariners', 'Titans', 'Foxes', 'Rangers', 'Stallions', 'Owls', 'Pilots', 'Bears', 'Dragons']
export const LEAGUES: readonly [name: string, code: string][] = [
  ['Premier Basketball League', 'PBL'], ['Continental Football League', 'CFL'], ['National Hockey Circuit', 'NHC'],
  ['Global Baseball Association', 'GBA'],
]
export const COINS: readonly [name: string, symbol: string, level: number][] = [
  ['Bitcoin', 'BTC', 98_000], ['Ethereum', 'ETH', 3_600], ['Solana', 'SOL', 180], ['Dogecoin', 'DOGE', 0.32],
  ['Cardano', 'ADA', 0.9], ['Avalanche', 'AVAX', 38],
]
export const COMPANIES = ['Nimbus Labs', 'Orbital Dynamics', 'Quanta Systems', 'Helix Motors', 'Lumen AI', 'Vertex Robotics', 'Cobalt Cloud', 'Arcadia Devices']
export const PRODUCTS = ['a humanoid robot', 'a foldable phone', 'a self-driving taxi service', 'a 2 nm chip', 'an AI assistant headset', 'a satellite internet plan']
export const CITIES: readonly [name: string, code: string, baseTempF: number][] = [
  ['New York', 'NY', 64], ['Chicago', 'CHI', 58], ['Miami', 'MIA', 84], ['Denver', 'DEN', 60], ['Austin', 'AUS', 80],
  ['Seattle', 'SEA', 57], ['Los Angeles', 'LAX', 73], ['Boston', 'BOS', 60],
]
export const AWARDS: readonly [name: string, code: string, category: string][] = [
  ['Golden Lens Awards', 'GLA', 'Best Picture'], ['Silver Note Awards', 'SNA', 'Album of the Year'],
  ['Crystal Mask Awards', 'CMA', 'Best Drama Series'], ['Laurel Book Prize', 'LBP', 'Novel of the Year'],
]
export const WORKS = [
  'The Quiet Harbor', 'Glass Horizon', 'Paper Kingdoms', 'Midnight Orchard', 'The Last Cartographer', 'Echoes of Ember',
  'Northern Lights Motel', 'A Thousand Small Fires', 'Salt and Static', 'The Lantern Keeper', 'Violet Frequency', 'Blue Meridian',
]
export const ARTISTS = ['Nova Reyes', 'The Copper Lines', 'Juno Vale', 'Static Orchard', 'Mara Quell', 'Dex Holloway']
export const ECON_SERIES: readonly [name: string, code: string, unit: string, level: number, step: number][] = [
  ['CPI inflation', 'CPI', '%', 2.9, 0.1],
  ['unemployment rate', 'U3', '%', 4.2, 0.1],
  ['GDP growth', 'GDP', '%', 2.1, 0.25],
]
