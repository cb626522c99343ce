/**
 * Supplementary units, DE 6/2 (Combined Nomenclature, Regulation (EEC) No 2658/87, Annex I, column 4):
 * the second quantity some CN codes are declared in besides the net mass. A working subset, by CN
 * heading or subheading: the goods the product's users clear most often. A code the table does not
 * know is not refused; it is asked for no unit (the clerk still may enter one).
 */

export interface SupplementaryUnit {
  /** The CN's symbol, as box 41 shows it. */
  symbol: string;
  /** In words, for the form and the messages. */
  name: string;
}

const P_ST = { symbol: 'p/st', name: 'number of items' };
const PA = { symbol: 'pa', name: 'number of pairs' };
const L = { symbol: 'l', name: 'litres' };
const L_ALC = { symbol: 'l alc. 100 %', name: 'litres of pure alcohol' };
const M2 = { symbol: 'm²', name: 'square metres' };
const M3 = { symbol: 'm³', name: 'cubic metres' };
const KWH = { symbol: '1 000 kWh', name: 'thousands of kilowatt hours' };

/** Longest prefix wins: a subheading listed overrides its heading. */
const UNITS: Readonly<Record<string, SupplementaryUnit>> = {
  '0101': P_ST, // live horses, asses, mules
  '0102': P_ST, // live bovine animals
  '2203': L, // beer
  '2204': L, // wine
  '2206': L, // other fermented beverages
  '2208': L_ALC, // spirits
  '2716': KWH, // electrical energy
  '4011': P_ST, // new pneumatic tyres
  '4407': M3, // wood sawn lengthwise
  '4412': M3, // plywood
  '6109': P_ST, // T-shirts
  '6110': P_ST, // jerseys, pullovers
  '6203': P_ST, // men's suits, trousers
  '6204': P_ST, // women's suits, dresses, trousers
  '6402': PA, // footwear, rubber or plastics
  '6403': PA, // footwear, leather uppers
  '6404': PA, // footwear, textile uppers
  '7007': M2, // safety glass
  '8415': P_ST, // air conditioning machines
  '8418': P_ST, // refrigerators, freezers
  '8450': P_ST, // washing machines
  '8471': P_ST, // computers
  '8501': P_ST, // electric motors and generators
  '8507': P_ST, // electric accumulators
  '8517': P_ST, // telephones
  '8528': P_ST, // monitors and television receivers
  '8539': P_ST, // lamps, LED lamps
  '8703': P_ST, // motor cars
  '8711': P_ST, // motorcycles
  '8712': P_ST, // bicycles
  '9006': P_ST, // cameras
  '9102': P_ST, // wrist-watches
};

/** The supplementary unit a CN code (8 or 10 digits, or a transit's 6) is declared in, if any. */
export function supplementaryUnitOf(commodityCode: string | null | undefined): SupplementaryUnit | null {
  const code = (commodityCode ?? '').replace(/[\s.]/g, '');
  if (!/^\d{6,10}$/.test(code)) return null;
  for (let n = Math.min(code.length, 8); n >= 4; n--) {
    const unit = UNITS[code.slice(0, n)];
    if (unit) return unit;
  }
  return null;
}
