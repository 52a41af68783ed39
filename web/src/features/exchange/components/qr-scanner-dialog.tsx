// 'Scan QR Code' (spec/exchange.md §2, §5, §9): the camera at 1280×720, a scan every 125 ms,
// a 0.8 s pause after a detection, coin-URI prefixes and query parts stripped. Loaded only
// when opened, with its decoder.
import jsQR from 'jsqr';
import { Camera, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

import { addressFromQr } from '../lib/qr-address';

const SCAN_EVERY_MS = 125;
const PAUSE_AFTER_DETECTION_MS = 800;

interface Props {
  onScan: (address: string) => void;
  onClose: () => void;
  /** A published sample address of the receive coin, offered on sandbox exchanges. */
  sample?: { coin: string; address: string; onUse: () => void } | undefined;
}

export default function QrScannerDialog({ onScan, onClose, sample }: Props) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const [facing, setFacing] = useState<'environment' | 'user'>('environment');
  const [scanning, setScanning] = useState(true);
  const [error, setError] = useState<string | null>(null);
  // The 0.8 s pause after a detection: cleared when the dialog goes, so closing it (Cancel,
  // Escape) during the pause never fills the address.
  const detection = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (detection.current) clearTimeout(detection.current);
    },
    [],
  );
  const detected = useEffectEvent((address: string) => onScan(address));

  const stopCamera = useCallback(() => {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
  }, []);

  useEffect(() => {
    if (!scanning) {
      stopCamera();
      return;
    }
    let cancelled = false;
    navigator.mediaDevices
      ?.getUserMedia({
        video: { facingMode: facing, width: { ideal: 1280 }, height: { ideal: 720 } },
      })
      .then((media) => {
        if (cancelled) {
          media.getTracks().forEach((track) => track.stop());
          return;
        }
        stream.current = media;
        setError(null);
        if (video.current) {
          video.current.srcObject = media;
          void video.current.play().catch(() => {});
        }
      })
      .catch(() => setError(t('scanner.denied')));
    return () => {
      cancelled = true;
      stopCamera();
    };
  }, [facing, scanning, stopCamera, t]);

  useEffect(() => {
    if (!scanning) return;
    let pausedUntil = 0;
    const timer = setInterval(() => {
      const v = video.current;
      const c = canvas.current;
      if (!v || !c || v.readyState < 2 || Date.now() < pausedUntil) return;
      c.width = v.videoWidth;
      c.height = v.videoHeight;
      const context = c.getContext('2d', { willReadFrequently: true });
      if (!context) return;
      context.drawImage(v, 0, 0, c.width, c.height);
      const found = jsQR(context.getImageData(0, 0, c.width, c.height).data, c.width, c.height);
      const address = found ? addressFromQr(found.data) : '';
      if (address) {
        pausedUntil = Date.now() + PAUSE_AFTER_DETECTION_MS;
        detection.current = setTimeout(() => detected(address), PAUSE_AFTER_DETECTION_MS);
        setScanning(false);
      }
    }, SCAN_EVERY_MS);
    return () => clearInterval(timer);
  }, [scanning]);

  const problem = error ?? (navigator.mediaDevices ? null : t('scanner.denied'));
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('scanner.title')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('scanner.cancel')}
          </Button>
          <Button
            variant="outline"
            onClick={() => setFacing((f) => (f === 'environment' ? 'user' : 'environment'))}
          >
            <RefreshCw aria-hidden="true" className="size-4" />
            {t('scanner.switchCamera')}
          </Button>
          <Button onClick={() => setScanning((s) => !s)}>
            <Camera aria-hidden="true" className="size-4" />
            {scanning ? t('scanner.stop') : t('scanner.start')}
          </Button>
        </>
      }
    >
      <div className="relative aspect-video overflow-hidden rounded-lg bg-slate-900">
        <video
          ref={video}
          muted
          playsInline
          className="size-full object-cover"
          aria-label={t('scanner.camera')}
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-[18%] rounded-xl border-4 border-white/80"
        />
        <canvas ref={canvas} className="hidden" />
      </div>
      {problem ? (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      ) : (
        <p className="text-sm text-slate-600">{t('scanner.hint')}</p>
      )}
      {sample ? (
        <section aria-labelledby="qr-sample-title" className="rounded-lg bg-slate-100 p-3 text-sm">
          <h3 id="qr-sample-title" className="font-medium">
            {t('scanner.sampleTitle')}
          </h3>
          <p className="mt-1 text-slate-700">{t('scanner.sampleText', { coin: sample.coin })}</p>
          <code className="mt-2 block font-mono text-xs break-all">{sample.address}</code>
          <Button variant="outline" size="sm" className="mt-2" onClick={sample.onUse}>
            {t('scanner.sampleUse')}
          </Button>
        </section>
      ) : null}
    </Dialog>
  );
}
