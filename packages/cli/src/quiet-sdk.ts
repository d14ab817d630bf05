// Imported first by every script: the AWS SDK warns once per process that Node 20 support ends in 2027.
// The project runs on Node 20 by design (the deployed function runs nodejs22.x); the warning is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
