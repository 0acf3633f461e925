package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// stream reads the table's stream on DynamoDB Local, as Lambda's event
// source mapping does on AWS: its calls go to DynamoDB Local directly,
// since they are AWS's, not Doorstep's. Records not yet delivered
// successfully stay pending; a batch whose handler reports failures is
// delivered again from its first failed record, as Lambda does.
type stream struct {
	client *dynamodbstreams.Client
	arn    string

	mu        sync.Mutex
	iterators map[string]*string // shard ID: next iterator; nil: closed
	pending   []events.DynamoDBEventRecord
	all       []events.DynamoDBEventRecord // every record read, in order, once
}

// poll reads the records the stream has for now onto pending.
func (s *stream) poll(ctx context.Context) error {
	desc, err := s.client.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(s.arn)})
	if err != nil {
		return fmt.Errorf("describe stream: %w", err)
	}
	for _, sh := range desc.StreamDescription.Shards {
		id := aws.ToString(sh.ShardId)
		if _, known := s.iterators[id]; known {
			continue
		}
		it, err := s.client.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: aws.String(s.arn), ShardId: sh.ShardId, ShardIteratorType: types.ShardIteratorTypeTrimHorizon,
		})
		if err != nil {
			return fmt.Errorf("shard iterator: %w", err)
		}
		s.iterators[id] = it.ShardIterator
	}
	for id, it := range s.iterators {
		for it != nil {
			out, err := s.client.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it, Limit: aws.Int32(1000)})
			var expired *types.ExpiredIteratorException
			if errors.As(err, &expired) {
				break
			}
			if err != nil {
				return fmt.Errorf("get records: %w", err)
			}
			for _, rec := range out.Records {
				ev, err := eventRecord(rec)
				if err != nil {
					return err
				}
				s.pending = append(s.pending, ev)
				s.all = append(s.all, ev)
			}
			it = out.NextShardIterator
			s.iterators[id] = it
			if len(out.Records) == 0 {
				break
			}
		}
	}
	return nil
}

// eventRecord is a record of the streams API as Lambda hands it to a
// function.
func eventRecord(rec types.Record) (events.DynamoDBEventRecord, error) {
	d := rec.Dynamodb
	if d == nil {
		return events.DynamoDBEventRecord{}, errors.New("a stream record without its change")
	}
	ev := events.DynamoDBEventRecord{
		EventID:     aws.ToString(rec.EventID),
		EventName:   string(rec.EventName),
		EventSource: "aws:dynamodb",
		Change: events.DynamoDBStreamRecord{
			Keys:           image(d.Keys),
			NewImage:       image(d.NewImage),
			OldImage:       image(d.OldImage),
			SequenceNumber: aws.ToString(d.SequenceNumber),
			StreamViewType: string(d.StreamViewType),
		},
	}
	if d.ApproximateCreationDateTime != nil {
		ev.Change.ApproximateCreationDateTime = events.SecondsEpochTime{Time: *d.ApproximateCreationDateTime}
	}
	return ev, nil
}

func image(m map[string]types.AttributeValue) map[string]events.DynamoDBAttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(m))
	for k, v := range m {
		out[k] = attr(v)
	}
	return out
}

func attr(v types.AttributeValue) events.DynamoDBAttributeValue {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return events.NewStringAttribute(v.Value)
	case *types.AttributeValueMemberN:
		return events.NewNumberAttribute(v.Value)
	case *types.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(v.Value)
	case *types.AttributeValueMemberNULL:
		return events.NewNullAttribute()
	case *types.AttributeValueMemberB:
		return events.NewBinaryAttribute(v.Value)
	case *types.AttributeValueMemberSS:
		return events.NewStringSetAttribute(v.Value)
	case *types.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(v.Value)
	case *types.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(v.Value)
	case *types.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = attr(e)
		}
		return events.NewListAttribute(l)
	case *types.AttributeValueMemberM:
		return events.NewMapAttribute(image(v.Value))
	}
	panic(fmt.Sprintf("stream record: attribute value %T", v))
}
