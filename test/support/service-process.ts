export { ApiProcess as ServiceProcess } from './api-process';
