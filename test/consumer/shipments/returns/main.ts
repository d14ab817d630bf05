// The returns app (cdktf.json here): synthesizes cdktf.out/stacks/returns/cdk.tf.json from the same stack the tools run.
import { App } from "cdktf";
import { app as returns } from "./stack";

const app = new App();
returns.addStack(app, { stackName: "returns", region: "eu-west-1", namePrefix: "returns" });
app.synth();
