import { ActionIcon, Alert, Box, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import {
  IconChevronLeft,
  IconChevronRight,
  IconFileAlert,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';

type PdfJs = typeof import('pdfjs-dist');

let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdf.js, loaded on first use: this module is itself a lazy chunk of the documents screens, and the
 * library (several hundred KB) comes with the first PDF shown, not with the app. Its worker is a
 * separate file Vite emits (`?url`), parsing PDFs off the main thread.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist').then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = workerUrl;
    return lib;
  });
  // A failed chunk load (the app was updated meanwhile) may work on the next try.
  pdfjs.catch(() => {
    pdfjs = undefined;
  });
  return pdfjs;
}

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

export interface PdfViewerProps {
  /** The PDF's bytes. */
  data: Blob;
  /** The file name, for the canvas's accessible name. */
  fileName: string;
}

/**
 * A PDF drawn page by page on a canvas with pdf.js: page navigation (buttons, or the arrow keys and
 * Page Up/Down on the page), zoom relative to the width of the dialog. A file pdf.js cannot read
 * shows its reason; the download stays available beside it.
 */
export default function PdfViewer({ data, fileName }: PdfViewerProps) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState<(typeof ZOOMS)[number]>(1);
  const [rendered, setRendered] = useState<number | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { ref: boxRef, width } = useElementSize();
  // Re-render on a real change of width only, not on every pixel of a resize.
  const fitWidth = Math.max(200, Math.round((width || 800) / 40) * 40);

  useEffect(() => {
    let cancelled = false;
    let task: ReturnType<PdfJs['getDocument']> | undefined;
    setPdf(null);
    setError(null);
    setPage(1);
    (async () => {
      const lib = await loadPdfJs();
      const bytes = new Uint8Array(await data.arrayBuffer());
      if (cancelled) return;
      task = lib.getDocument({ data: bytes });
      const loaded = await task.promise;
      if (!cancelled) setPdf(loaded);
    })().catch((e: unknown) => {
      if (!cancelled) setError(e instanceof Error ? e.message : String(e));
    });
    return () => {
      cancelled = true;
      // Destroying the loading task also destroys the document and frees its worker resources.
      void task?.destroy();
    };
  }, [data]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!pdf || !canvas) return;
    let cancelled = false;
    let task: RenderTask | undefined;
    (async () => {
      const p = await pdf.getPage(page);
      if (cancelled) return;
      const natural = p.getViewport({ scale: 1 });
      // A little narrower than the box, so a vertical scroll bar does not bring a horizontal one.
      const scale = ((fitWidth - 24) / natural.width) * zoom;
      // Drawn at the screen's pixel density, shown at CSS size: sharp text on high-DPI screens.
      const ratio = window.devicePixelRatio || 1;
      const viewport = p.getViewport({ scale: scale * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
      task = p.render({ canvas, viewport });
      await task.promise;
      if (!cancelled) setRendered(page);
    })().catch((e: unknown) => {
      // A newer page or size replaced this drawing: nothing went wrong.
      if (cancelled || (e instanceof Error && e.name === 'RenderingCancelledException')) return;
      setError(e instanceof Error ? e.message : String(e));
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, page, zoom, fitWidth]);

  const pages = pdf?.numPages ?? 0;
  const go = (next: number) => setPage((current) => Math.min(Math.max(1, next), pages || current));
  const zoomIndex = ZOOMS.indexOf(zoom);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'PageDown') go(page + 1);
    else if (event.key === 'ArrowLeft' || event.key === 'PageUp') go(page - 1);
    else return;
    event.preventDefault();
  };

  if (error)
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconFileAlert aria-hidden />}
        title="This PDF cannot be shown"
        role="alert"
        data-testid="pdf-error"
      >
        {error}. Download the file to open it with another program.
      </Alert>
    );

  return (
    <Stack gap="xs" data-testid="pdf-viewer">
      <Group justify="space-between" gap="xs">
        <Group gap={4}>
          <Tooltip label="Previous page">
            <ActionIcon
              variant="default"
              onClick={() => go(page - 1)}
              disabled={!pdf || page <= 1}
              aria-label="Previous page"
              data-testid="pdf-prev"
            >
              <IconChevronLeft size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Text size="sm" miw={64} ta="center" aria-live="polite" data-testid="pdf-page">
            {pdf ? `${page} / ${pages}` : '… / …'}
          </Text>
          <Tooltip label="Next page">
            <ActionIcon
              variant="default"
              onClick={() => go(page + 1)}
              disabled={!pdf || page >= pages}
              aria-label="Next page"
              data-testid="pdf-next"
            >
              <IconChevronRight size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Group gap={4}>
          <Tooltip label="Zoom out">
            <ActionIcon
              variant="default"
              onClick={() => setZoom(ZOOMS[zoomIndex - 1] ?? zoom)}
              disabled={zoomIndex <= 0}
              aria-label="Zoom out"
              data-testid="pdf-zoom-out"
            >
              <IconZoomOut size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Text size="sm" miw={48} ta="center" data-testid="pdf-zoom">
            {Math.round(zoom * 100)}%
          </Text>
          <Tooltip label="Zoom in">
            <ActionIcon
              variant="default"
              onClick={() => setZoom(ZOOMS[zoomIndex + 1] ?? zoom)}
              disabled={zoomIndex >= ZOOMS.length - 1}
              aria-label="Zoom in"
              data-testid="pdf-zoom-in"
            >
              <IconZoomIn size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Box
        ref={boxRef}
        // The page scrolls when zoomed in; focusable so the keys above and scrolling work without a mouse.
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-label={`${fileName}, page ${page} of ${pages || '…'}`}
        role="document"
        style={{
          overflow: 'auto',
          maxHeight: '70dvh',
          background: 'var(--mantine-color-gray-2)',
          borderRadius: 'var(--mantine-radius-sm)',
          position: 'relative',
          textAlign: 'center',
        }}
      >
        {!pdf && (
          <Group justify="center" p="xl" data-testid="pdf-loading">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              Opening the PDF…
            </Text>
          </Group>
        )}
        <canvas
          ref={canvasRef}
          data-testid="pdf-canvas"
          data-rendered-page={rendered ?? undefined}
          style={{ display: pdf ? 'inline-block' : 'none', background: 'white', verticalAlign: 'top' }}
          aria-hidden
        />
      </Box>
    </Stack>
  );
}
