/** ISO 3166-1 alpha-2 country codes (officially assigned), plus XI (Northern Ireland, EU VAT/customs use). */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
    'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
    'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
    'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
    'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
    'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XI'
  ).split(' '),
);

export function isCountryCode(value: string): boolean {
  return COUNTRY_CODES.has(value);
}

export const UN_LOCODE_PATTERN = /^[A-Z]{2}[A-Z2-9]{3}$/;

/** UN/LOCODE: five characters, the first two an ISO country code (`NLRTM`, `DEHAM`). */
export function isUnLocode(value: string): boolean {
  return UN_LOCODE_PATTERN.test(value) && isCountryCode(value.slice(0, 2));
}

/** Vessel IMO number: 7 digits, the last a check digit of the first six weighted 7..2. */
export function isImoNumber(value: string): boolean {
  if (!/^\d{7}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(value[i]) * (7 - i);
  return sum % 10 === Number(value[6]);
}
