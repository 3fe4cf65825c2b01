// Installs Debian's ffmpeg when it is missing (the video features and their tests need `ffmpeg` and
// `ffprobe`, both in Debian's ffmpeg package), like scripts/ensure-chromium.mjs does for Chromium. As
// root it runs apt-get itself; otherwise through `sudo -n` (never a password prompt in the middle of
// a test run); when neither can, it stops with a clear message. FFMPEG_PATH / FFPROBE_PATH name other
// binaries (server/media-encode/run.ts reads the same variables).
import { execSync, spawnSync } from 'node:child_process';

const binaries = [process.env.FFMPEG_PATH ?? 'ffmpeg', process.env.FFPROBE_PATH ?? 'ffprobe'];
const missing = () => binaries.filter((binary) => spawnSync(binary, ['-version'], { stdio: 'ignore' }).status !== 0);
const install = 'apt-get update -qq && env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ffmpeg';

const before = missing();
if (before.length > 0) {
  const root = process.getuid && process.getuid() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (root || sudo) {
    console.log(`${before.join(' and ')} not found: installing Debian's ffmpeg package`);
    execSync(sudo ? `sudo -n sh -c '${install}'` : install, { stdio: 'inherit' });
    const after = missing();
    if (after.length > 0) {
      console.error(`${after.join(' and ')} still not runnable after installing the ffmpeg package.`);
      process.exit(1);
    }
  } else {
    console.error(
      `${before.join(' and ')} not found. Install ffmpeg (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH, then run the tests again.`,
    );
    process.exit(1);
  }
}
