import { App } from 'aws-cdk-lib';
import { composeApp } from './compose-app.js';

composeApp(new App());
