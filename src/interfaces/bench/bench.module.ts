import { Module } from '@nestjs/common';
import { BenchBaselinesController } from './bench-baselines.controller';

@Module({ controllers: [BenchBaselinesController] })
export class BenchModule {}
