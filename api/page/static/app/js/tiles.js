// Tiles in RULES.md notation ("5m", "7z", "2f") and as Chinese characters.

const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
export const SUITS = {m: '萬', p: '筒', s: '條'};
export const HONOURS = ['東', '南', '西', '北', '白', '發', '中'];
export const FLOWERS = ['春', '夏', '秋', '冬', '梅', '蘭', '菊', '竹'];
export const WIND_NAMES = {E: '東', S: '南', W: '西', N: '北'};
export const WINDS = ['E', 'S', 'W', 'N'];

/** The palette rows: 萬, 筒, 條, 字, 花. */
export const ROWS = [
  ...Object.keys(SUITS).map((suit) => NUMERALS.map((_, i) => `${i + 1}${suit}`)),
  HONOURS.map((_, i) => `${i + 1}z`),
  FLOWERS.map((_, i) => `${i + 1}f`),
];

export const isFlower = (tile) => tile.endsWith('f');
export const isSuited = (tile) => tile[1] in SUITS;

/** {top, bottom, kind}: "五" over "萬" for 5m; a single character for honours and flowers. */
export function face(tile) {
  const number = Number(tile[0]);
  const suit = tile[1];
  if (suit in SUITS) return {top: NUMERALS[number - 1], bottom: SUITS[suit], kind: suit};
  if (suit === 'z') return {top: HONOURS[number - 1], bottom: '', kind: `z${number}`};
  return {top: FLOWERS[number - 1], bottom: '', kind: 'f'};
}

/** "五萬", "中", "梅": the tile's Chinese name. */
export function tileName(tile) {
  const {top, bottom} = face(tile);
  return top + bottom;
}

/** Sort order: 萬, 筒, 條, 字, 花, then number. */
export function tileOrder(a, b) {
  const order = 'mpszf';
  return order.indexOf(a[1]) - order.indexOf(b[1]) || Number(a[0]) - Number(b[0]);
}

/** The tiles of a meld started at `tile`: chow = tile and the next two; pung 3, kong 4 alike. */
export function meldTiles(kind, tile) {
  if (kind === 'chow') {
    const number = Number(tile[0]);
    if (!isSuited(tile) || number > 7) return null;
    return [0, 1, 2].map((step) => `${number + step}${tile[1]}`);
  }
  return Array(kind === 'pung' ? 3 : 4).fill(tile);
}

/** The seat wind (門風) of seat `index`: the dealer sits 東, then 南, 西, 北 in turn order. */
export function seatWind(index, dealerIndex) {
  return WINDS[(index - dealerIndex + 4) % 4];
}

/** Tiles from a compact string ("123m55z") or a list of tile strings; null if not in that notation. */
export function parseTiles(value) {
  const text = Array.isArray(value) ? value.join('') : String(value ?? '');
  const tiles = [];
  let digits = '';
  for (const char of text.replace(/\s+/g, '')) {
    if (/[0-9]/.test(char)) digits += char;
    else if ('mpszf'.includes(char) && digits) {
      for (const digit of digits) tiles.push(`${digit}${char}`);
      digits = '';
    } else return null;
  }
  return digits ? null : tiles;
}
