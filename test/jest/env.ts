// Every test process stays offline: cdktf must not phone home, AWS SDK clients must never find real credentials.
process.env.CHECKPOINT_DISABLE = "1";
process.env.CDKTF_DISABLE_PLUGIN_CACHE_ENV = "1";
process.env.AWS_ACCESS_KEY_ID ??= "local";
process.env.AWS_SECRET_ACCESS_KEY ??= "local";
process.env.AWS_REGION ??= "us-east-1";
// The AWS SDK warns once per process about Node 20 on stderr; it is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
// A child process the tests start (tsx scripts, cdktf synth) resolves the workspace packages from source, as npm
// scripts do (.npmrc), however jest itself was started.
const SOURCE_CONDITION = "--conditions=@effectively-once/source";
if (!(process.env.NODE_OPTIONS ?? "").includes(SOURCE_CONDITION)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} ${SOURCE_CONDITION}`.trim();
// Tests run from the repository root, as root `npm test` starts them, also when `npm test -w <workspace>` starts jest
// in the workspace's folder: the tools resolve app names (examples/<name>) and `.build/` against the working folder.
process.chdir(`${__dirname}/../..`);
