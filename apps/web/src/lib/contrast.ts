/*
 * Colour contrast as WCAG 2.2 defines it (1.4.3, relative luminance of sRGB), for the theme to choose
 * text colours that read (ADR 0072): a colour is darkened until it has the contrast asked for.
 */

type Rgb = readonly [number, number, number];

function rgbOf(hex: string): Rgb {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [
    Number.parseInt(m[1] ?? '0', 16),
    Number.parseInt(m[2] ?? '0', 16),
    Number.parseInt(m[3] ?? '0', 16),
  ];
}

function hexOf(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Relative luminance (WCAG 2.2, "relative luminance"), 0 for black to 1 for white. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color` with each channel scaled by `1 - by` (0 keeps it, 1 is black). */
export function darken(color: string, by: number): string {
  const [r, g, b] = rgbOf(color);
  return hexOf([r * (1 - by), g * (1 - by), b * (1 - by)]);
}

/** `color` darkened (towards black, hue kept) in small steps until its contrast on `background` is `min`. */
export function readableOn(color: string, background: string, min = 4.5): string {
  for (let by = 0; by < 1; by += 0.02) {
    const candidate = by === 0 ? color : darken(color, by);
    if (contrastRatio(candidate, background) >= min) return candidate;
  }
  return '#000000';
}
