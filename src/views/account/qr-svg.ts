/**
 * The otpauth:// link as an SVG QR code, drawn by the `qrcode` package, which loads on first use (this
 * route only). No QR code (the library failed to load) is an empty drawing: the secret stays shown as text.
 */
export async function renderQrSvg(text: string): Promise<string> {
  try {
    const QR = await import('qrcode');
    return await QR.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  } catch (error) {
    console.warn('QR code unavailable', error);
    return '';
  }
}
