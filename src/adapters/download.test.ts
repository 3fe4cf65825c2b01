// @vitest-environment jsdom
/**
 * The one download adapter (the audit log's and the report tables' CSV): a Blob of the text under
 * an object URL, a link with the file's name clicked, the URL let go afterwards.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CSV_TYPE, downloadCsv, downloadFile } from './download';

describe('downloadFile', () => {
  afterEach(() => vi.restoreAllMocks());

  function recordDownloads() {
    const blobs: Blob[] = [];
    const revoked: string[] = [];
    const clicked: { href: string; download: string }[] = [];
    URL.createObjectURL = (blob: Blob) => { blobs.push(blob); return `blob:file-${blobs.length}`; };
    URL.revokeObjectURL = (url: string) => { revoked.push(url); };
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    return { blobs, revoked, clicked };
  }

  it('clicks a link named for the file to the text as a CSV blob, then lets the URL go', async () => {
    const seen = recordDownloads();
    downloadFile('a,b\r\n1,2\r\n', 'audit-log.csv');
    expect(seen.clicked).toEqual([{ href: 'blob:file-1', download: 'audit-log.csv' }]);
    expect(seen.blobs[0]!.type).toBe(CSV_TYPE);
    expect(await seen.blobs[0]!.text()).toBe('a,b\r\n1,2\r\n');
    expect(seen.revoked).toEqual(['blob:file-1']);
  });

  it('takes another type when given one', () => {
    const seen = recordDownloads();
    downloadFile('{}', 'x.json', 'application/json');
    expect(seen.blobs[0]!.type).toBe('application/json');
  });

  it('is the machines\' downloadCsv action: { csv, filename } as their params', async () => {
    const seen = recordDownloads();
    downloadCsv(undefined, { csv: 'x\r\n', filename: 'qos.csv' });
    expect(seen.clicked).toEqual([{ href: 'blob:file-1', download: 'qos.csv' }]);
    expect(await seen.blobs[0]!.text()).toBe('x\r\n');
  });
});
