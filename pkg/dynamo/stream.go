package dynamo

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// RequestWrite is a write of a request item, as the table's stream tells it.
type RequestWrite struct {
	Code   string           // the request's code, from the item's key
	Before *booking.Request // as it was; nil for a new item (INSERT)
	After  booking.Request  // as it is now
}

// DecodeRequestWrite reads a record of the table's stream (view type
// NEW_AND_OLD_IMAGES). ok is false for a record that is not a put of a
// request item: another kind of item (holds, counters, keys, businesses,
// the notification ledger), or a removal. A request item that cannot be
// decoded is an error; w.Code names the request all the same.
func DecodeRequestWrite(rec events.DynamoDBEventRecord) (w RequestWrite, ok bool, err error) {
	if rec.EventName != "INSERT" && rec.EventName != "MODIFY" {
		return RequestWrite{}, false, nil
	}
	pk, sk := rec.Change.Keys[attrPK], rec.Change.Keys[attrSK]
	if pk.DataType() != events.DataTypeString || sk.DataType() != events.DataTypeString ||
		!strings.HasPrefix(pk.String(), prefixRequest) || sk.String() != skRequest {
		return RequestWrite{}, false, nil
	}
	w.Code = strings.TrimPrefix(pk.String(), prefixRequest)
	if err := decodeImage(rec.Change.NewImage, &w.After); err != nil {
		return RequestWrite{Code: w.Code}, false, fmt.Errorf("request %s: new image: %w", w.Code, err)
	}
	if rec.EventName == "MODIFY" {
		if len(rec.Change.OldImage) == 0 {
			return RequestWrite{Code: w.Code}, false, fmt.Errorf("request %s: a MODIFY without its old image: the stream must be NEW_AND_OLD_IMAGES", w.Code)
		}
		w.Before = new(booking.Request)
		if err := decodeImage(rec.Change.OldImage, w.Before); err != nil {
			return RequestWrite{Code: w.Code}, false, fmt.Errorf("request %s: old image: %w", w.Code, err)
		}
	}
	return w, true, nil
}

// DecodeLimitHit reads a record of the table's stream: ok is true for the
// insert of a limit hit's record (Store.RecordLimitHit), whose business and
// clock hour it returns, from the item's key. Every other record, a limit
// hit's removal by TTL among them, is not one. A limit hit's key that does
// not name an hour is an error; slug names the business all the same.
func DecodeLimitHit(rec events.DynamoDBEventRecord) (slug string, hour time.Time, ok bool, err error) {
	if rec.EventName != "INSERT" {
		return "", time.Time{}, false, nil
	}
	pk, sk := rec.Change.Keys[attrPK], rec.Change.Keys[attrSK]
	if pk.DataType() != events.DataTypeString || sk.DataType() != events.DataTypeString ||
		!strings.HasPrefix(pk.String(), prefixBusiness) || !strings.HasPrefix(sk.String(), prefixLimitHit) {
		return "", time.Time{}, false, nil
	}
	slug = strings.TrimPrefix(pk.String(), prefixBusiness)
	hour, err = time.Parse(time.RFC3339, strings.TrimPrefix(sk.String(), prefixLimitHit))
	if err != nil || slug == "" || !hour.Equal(hour.Truncate(time.Hour)) {
		return slug, time.Time{}, false, fmt.Errorf("limit hit of %q: the key %q, %q names no business and clock hour", slug, pk.String(), sk.String())
	}
	return slug, hour.UTC(), true, nil
}

// decodeImage decodes a stream image of a request item as Store.Request
// decodes the item.
func decodeImage(image map[string]events.DynamoDBAttributeValue, r *booking.Request) error {
	if len(image) == 0 {
		return fmt.Errorf("no image")
	}
	item, err := streamItem(image)
	if err != nil {
		return err
	}
	return attributevalue.UnmarshalMapWithOptions(item, r, jsonNamesDecoding)
}

// streamItem converts a stream image (aws-lambda-go's attribute values) to
// the SDK's, which the attributevalue decoder reads.
func streamItem(image map[string]events.DynamoDBAttributeValue) (map[string]types.AttributeValue, error) {
	item := make(map[string]types.AttributeValue, len(image))
	for name, v := range image {
		av, err := streamValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		item[name] = av
	}
	return item, nil
}

func streamValue(v events.DynamoDBAttributeValue) (types.AttributeValue, error) {
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}, nil
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}, nil
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}, nil
	case events.DataTypeNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}, nil
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}, nil
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}, nil
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}, nil
	case events.DataTypeList:
		list := v.List()
		out := make([]types.AttributeValue, len(list))
		for i, e := range list {
			av, err := streamValue(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = av
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case events.DataTypeMap:
		m, err := streamItem(v.Map())
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("unknown attribute type %v", v.DataType())
}
