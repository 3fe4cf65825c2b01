// Installs Debian's ffmpeg when it is missing (the video features and their tests need `ffmpeg` and
// `ffprobe`). As root it runs apt-get itself; otherwise it stops with a clear message instead of
// prompting for a sudo password in the middle of a test run.
import { execSync, spawnSync } from 'node:child_process';

const binary = process.env.FFMPEG_PATH ?? 'ffmpeg';
const found = () => spawnSync(binary, ['-version'], { stdio: 'ignore' }).status === 0;

if (!found()) {
  if (process.getuid && process.getuid() === 0) {
    console.log(`ffmpeg not found (${binary}): installing Debian's ffmpeg package`);
    execSync('apt-get update -qq && env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ffmpeg', { stdio: 'inherit' });
    if (!found()) {
      console.error(`ffmpeg is still not runnable as ${binary} after installing the ffmpeg package.`);
      process.exit(1);
    }
  } else {
    console.error(`ffmpeg not found (${binary}). Install it (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH, then run the tests again.`);
    process.exit(1);
  }
}
