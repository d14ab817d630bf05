// A team's own cdktf app: shipments dispatched once per [carrier, trackingNumber], on the installed package only.
import { App } from "cdktf";
import { app as shipments } from "./stack";

const app = new App();
shipments.addStack(app, { stackName: "shipments", region: "eu-west-1", namePrefix: "shipments" });
app.synth();
