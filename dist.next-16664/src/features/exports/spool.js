import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
/** Bytes gathered before they go to the file: one buffer, reused for the whole document. */
const BUFFER_BYTES = 1 << 20;
/** A spool that nobody released (an export that failed half-way, a test) closes when it is collected. */
const unreleased = new FinalizationRegistry((fd) => {
    try {
        closeSync(fd);
    }
    catch {
        // Already closed.
    }
});
/**
 * UTF-8 text appended to a temporary file through one reused buffer. The file is unlinked as soon as it is
 * open, so a large export lives in the page cache instead of the process's memory, and nothing is left on
 * disk whatever becomes of the process. Readers take ranges of it as streams; `release` closes it.
 */
export class Spool {
    fd;
    buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    pending = 0;
    flushed = 0;
    released = false;
    constructor(dir = tmpdir()) {
        const file = path.join(dir, `comply-spool-${randomUUID()}`);
        this.fd = openSync(file, 'wx+', 0o600);
        unlinkSync(file);
        unreleased.register(this, this.fd, this);
    }
    /** Bytes written so far. */
    get size() {
        return this.flushed + this.pending;
    }
    write(text) {
        // A UTF-8 character takes at most three bytes per UTF-16 code unit: measure only when it may not fit.
        if (BUFFER_BYTES - this.pending < text.length * 3) {
            const bytes = Buffer.byteLength(text, 'utf8');
            if (BUFFER_BYTES - this.pending < bytes) {
                this.flush();
                if (bytes > BUFFER_BYTES) {
                    this.append(Buffer.from(text, 'utf8'));
                    return;
                }
            }
        }
        this.pending += this.buffer.write(text, this.pending, 'utf8');
    }
    /** Appends bytes as they are (an archive written around the documents, say). */
    writeBytes(bytes) {
        if (BUFFER_BYTES - this.pending < bytes.length) {
            this.flush();
            if (bytes.length > BUFFER_BYTES) {
                this.append(bytes);
                return;
            }
        }
        this.buffer.set(bytes, this.pending);
        this.pending += bytes.length;
    }
    /** The bytes of a range as a stream (positioned reads: several may run at once). */
    stream({ start, end }) {
        this.flush();
        if (end <= start)
            return Readable.from([]);
        return createReadStream('', {
            fd: this.fd,
            start,
            end: end - 1,
            autoClose: false,
            highWaterMark: 1 << 20,
        });
    }
    /** The bytes of a range in one buffer: for small documents and tests. */
    read({ start, end }) {
        this.flush();
        const out = Buffer.allocUnsafe(end - start);
        for (let done = 0; done < out.length;) {
            const read = readSync(this.fd, out, done, out.length - done, start + done);
            if (read === 0)
                throw new Error('The spool ended before the range did');
            done += read;
        }
        return out;
    }
    release() {
        if (this.released)
            return;
        this.released = true;
        unreleased.unregister(this);
        closeSync(this.fd);
    }
    flush() {
        // A released descriptor's number may already name another file.
        if (this.released)
            throw new Error('The spool was released');
        if (this.pending === 0)
            return;
        const pending = this.pending;
        this.pending = 0;
        this.append(this.buffer.subarray(0, pending));
    }
    append(bytes) {
        for (let done = 0; done < bytes.length;) {
            done += writeSync(this.fd, bytes, done, bytes.length - done, this.flushed + done);
        }
        this.flushed += bytes.length;
    }
}
//# sourceMappingURL=spool.js.map