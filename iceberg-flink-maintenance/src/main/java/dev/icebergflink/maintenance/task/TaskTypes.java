package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * The Flink types of what travels between maintenance operators. The records are Flink POJOs, so
 * they travel with Flink's own serializer; task payloads are bytes of the tasks' versioned
 * serializers.
 */
@Internal
public final class TaskTypes {

    public static final TypeInformation<byte[]> BYTES =
            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
    public static final TypeInformation<Trigger> TRIGGER = Types.POJO(Trigger.class);
    public static final TypeInformation<TaskResult> TASK_RESULT = Types.POJO(TaskResult.class);
    public static final TypeInformation<PlanHeader> PLAN_HEADER = Types.POJO(PlanHeader.class);
    public static final TypeInformation<WorkResult> WORK_RESULT = Types.POJO(WorkResult.class);
    public static final TypeInformation<KeyedRecord> KEYED_RECORD = Types.POJO(KeyedRecord.class);

    private TaskTypes() {}
}
