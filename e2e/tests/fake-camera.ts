// A video file for Chromium's fake camera that shows one QR code (Y4M, 4:2:0, grey levels).
import { writeFileSync } from 'node:fs';

import QRCode from 'qrcode';

export function writeQrVideo(path: string, text: string, width = 640, height = 480): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const quiet = 4;
  const scale = Math.floor(Math.min(width, height) * 0.8 / (size + quiet * 2));
  const left = Math.floor((width - (size + quiet * 2) * scale) / 2);
  const top = Math.floor((height - (size + quiet * 2) * scale) / 2);

  const luma = Buffer.alloc(width * height, 235);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!qr.modules.get(row, col)) continue;
      const x0 = left + (col + quiet) * scale;
      const y0 = top + (row + quiet) * scale;
      for (let y = y0; y < y0 + scale; y++) luma.fill(16, y * width + x0, y * width + x0 + scale);
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: 10 }, () => frame)]));
}
