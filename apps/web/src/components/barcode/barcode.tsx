import { formatSscc, ssccProblem } from '@fvg/contracts';
import { code128, drawingSVG, gs1_128 } from 'bwip-js/browser';
import { useMemo } from 'react';
import { t as translate, useT } from '../../lib/i18n.ts';
import classes from './barcode.module.css';

interface Rendered {
  svg: string | null;
  problem: string | null;
}

/*
 * The two encoders by name, not bwip-js's `toSVG` (which looks any of its hundred symbologies up by
 * name and so pulls them all into the bundle: 900 KB instead of what these two need).
 */
const ENCODERS = { 'gs1-128': gs1_128, code128 } as const;

/**
 * bwip-js draws the symbol as an SVG string (no canvas: it prints sharp at any size and works in
 * jsdom). A value the symbology cannot encode throws; the caller shows why instead of a broken image.
 */
function renderSvg(bcid: keyof typeof ENCODERS, text: string): Rendered {
  try {
    const encode = ENCODERS[bcid];
    const svg = encode(
      { bcid, text, scale: 2, height: 12, includetext: false, paddingwidth: 0 },
      drawingSVG(),
    );
    return { svg, problem: null };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^bwipp\.\w+#\d+: /, '') : '';
    return { svg: null, problem: message || translate('records:barcode.cannotDraw') };
  }
}

interface BarcodeFigureProps {
  rendered: Rendered;
  /** What a screen reader says and what stands under the bars. */
  label: string;
  humanReadable: string;
  /** Shown instead of the bars when the value cannot be encoded. */
  fallback: string;
  height?: string;
  testId: string;
}

function BarcodeFigure({ rendered, label, humanReadable, fallback, height, testId }: BarcodeFigureProps) {
  if (!rendered.svg) {
    return (
      <div className={classes.fallback} role="img" aria-label={label} data-testid={`${testId}-invalid`}>
        <span className={classes.fallbackTitle}>{fallback}</span>
        <span className={classes.text}>{humanReadable}</span>
      </div>
    );
  }
  return (
    <figure className={classes.barcode} data-testid={testId}>
      <div
        className={classes.bars}
        role="img"
        aria-label={label}
        style={height ? { height } : undefined}
        // The SVG comes from bwip-js, built from digits and the symbology's own drawing code, never from markup.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: bwip-js output, see above
        dangerouslySetInnerHTML={{ __html: rendered.svg }}
      />
      <figcaption className={classes.text} aria-hidden>
        {humanReadable}
      </figcaption>
    </figure>
  );
}

export interface Gs1_128Props {
  /** The 18-digit SSCC (without the application identifier). */
  sscc: string;
  /** The GS1 company prefix length, to space the human-readable line into its parts. */
  prefixLength?: number;
  /** CSS height of the bars (default 15mm-ish, set by the style sheet). */
  height?: string;
  testId?: string;
}

/** A GS1-128 barcode of an SSCC under application identifier (00), with the human-readable line below. */
export function Gs1_128({ sscc, prefixLength, height, testId = 'gs1-128' }: Gs1_128Props) {
  const t = useT('records');
  const problem = ssccProblem(sscc);
  const rendered = useMemo<Rendered>(
    () => (problem ? { svg: null, problem } : renderSvg('gs1-128', `(00)${sscc}`)),
    [sscc, problem],
  );
  const readable = problem ? sscc : formatSscc(sscc, prefixLength);
  return (
    <BarcodeFigure
      rendered={rendered}
      label={t('barcode.sscc', { value: readable })}
      humanReadable={readable}
      fallback={t('barcode.none', { problem: rendered.problem ?? t('barcode.invalidSscc') })}
      height={height}
      testId={testId}
    />
  );
}

/**
 * Code 128 reaches beyond printable ASCII only through FNC4 shifts that many scanners read as another
 * code page; a reference printed for scanning keeps to what every scanner returns unchanged.
 */
function code128Problem(value: string): string | undefined {
  if (value.trim() === '') return translate('records:barcode.noValue');
  if (!/^[\x20-\x7e]+$/.test(value)) return translate('records:barcode.code128Ascii');
  return undefined;
}

export interface Code128Props {
  value: string;
  height?: string;
  testId?: string;
}

/** A Code 128 barcode of a reference (a shipment number), with the value below. */
export function Code128({ value, height, testId = 'code-128' }: Code128Props) {
  const t = useT('records');
  const rendered = useMemo<Rendered>(() => {
    const problem = code128Problem(value);
    return problem ? { svg: null, problem } : renderSvg('code128', value);
  }, [value]);
  return (
    <BarcodeFigure
      rendered={rendered}
      label={t('barcode.code128', { value })}
      humanReadable={value}
      fallback={t('barcode.none', { problem: rendered.problem ?? t('barcode.invalidValue') })}
      height={height}
      testId={testId}
    />
  );
}
