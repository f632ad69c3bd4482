import { Module } from '@nestjs/common';
import { BenchBaselinesController } from '../../interfaces/bench/bench-baselines.controller';

@Module({ controllers: [BenchBaselinesController] })
export class BenchModule {}
