// tap runs every test file with the plugin set its Test class was built for, and a run
// uses the set built when it started. After `npm ci` that is tap's default set, whose
// TypeScript plugin cannot load TypeScript 7, so the first run after an install fails
// unless `tap build` came first. `tap build` takes most of a minute: exit 0 when the
// built set is already the configured one, 1 when it must be rebuilt.
try {
  const { TapConfig } = await import('@tapjs/config');
  const { signature } = await import('@tapjs/test');
  const config = await TapConfig.load();
  process.exitCode = config.pluginSignature === signature ? 0 : 1;
} catch {
  process.exitCode = 1;
}
