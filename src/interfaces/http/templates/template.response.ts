import { ApiProperty } from '@nestjs/swagger';
import { ListResponseOf } from '../pagination/list-response';
import { TemplateView } from '../../../application/template/template.view';
import { Holds, SameShape } from '../openapi/same-shape';

export class TemplateResponse {
  @ApiProperty({ example: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageTemplateId!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The template this one was copied from.' }) sourcePageTemplateId!: string | null;
  @ApiProperty({ example: 'Copy of Lead capture' }) name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty() templateContent!: string;
  @ApiProperty() isEditable!: boolean;
  @ApiProperty() isSystem!: boolean;
  @ApiProperty({ type: 'integer', example: 1 }) version!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updatedAt!: string | null;
}

export class TemplateListResponse extends ListResponseOf(TemplateResponse) {}

// Tied to the views the controllers send (openapi/same-shape.ts).
export type TemplateShape = Holds<SameShape<TemplateResponse, TemplateView>>;
