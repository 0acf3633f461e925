package export

// words are the CSV's texts, per language: its headers and the values it
// writes in words. A key missing from a language is a test failure.
var words = map[string]map[string]string{
	"en": {
		"col_code": "Request code", "col_sent": "Sent", "col_status": "State", "col_service": "Service",
		"col_window_start": "Window start", "col_window_end": "Window end",
		"col_name": "Name", "col_phone": "Phone", "col_email": "E-mail",
		"col_street": "Street", "col_unit": "Unit", "col_city": "City", "col_zip": "ZIP code",
		"col_urgency": "Urgency", "col_description": "Description", "col_language": "Language",
		"col_texts": "Texts", "col_assistant": "Sent by an assistant", "col_deposit": "Deposit",
		"col_erased": "Details erased", "col_history": "History",

		"status_pending_payment": "Waiting for the deposit", "status_new": "New", "status_accepted": "Accepted",
		"status_declined": "Declined", "status_completed": "Done", "status_cancelled": "Cancelled",
		"status_no_show": "Nobody there", "status_expired": "Expired",

		"urgency_emergency": "Emergency", "urgency_soon": "Soon", "urgency_flexible": "Flexible",
		"texts_true": "Yes", "texts_false": "No",

		"deposit_due": "due", "deposit_paid": "paid", "deposit_refunded": "refunded", "deposit_kept": "kept",
		"deposit_deducted": "deducted", "deposit_expired": "not paid in time", "deposit_cancelled": "cancelled before paying",
		"simulated": "simulated",

		"ev_create": "Sent", "ev_pay": "Deposit paid", "ev_expire": "Expired", "ev_accept": "Accepted",
		"ev_decline": "Declined", "ev_spam": "Marked not genuine", "ev_move": "Moved", "ev_complete": "Done",
		"ev_no_show": "Nobody there", "ev_cancel": "Cancelled", "ev_remind": "Reminder sent",
		"by_customer": "by the person", "by_business": "by the business", "by_operator": "by Doorstep",
		"by_system": "by Doorstep",
	},
	"es": {
		"col_code": "Código de solicitud", "col_sent": "Enviada", "col_status": "Estado", "col_service": "Servicio",
		"col_window_start": "Inicio del horario", "col_window_end": "Fin del horario",
		"col_name": "Nombre", "col_phone": "Teléfono", "col_email": "Correo",
		"col_street": "Calle", "col_unit": "Unidad", "col_city": "Ciudad", "col_zip": "Código postal",
		"col_urgency": "Urgencia", "col_description": "Descripción", "col_language": "Idioma",
		"col_texts": "Mensajes de texto", "col_assistant": "Enviada por un asistente", "col_deposit": "Depósito",
		"col_erased": "Datos borrados", "col_history": "Historial",

		"status_pending_payment": "Esperando el depósito", "status_new": "Nueva", "status_accepted": "Aceptada",
		"status_declined": "Rechazada", "status_completed": "Hecha", "status_cancelled": "Cancelada",
		"status_no_show": "Nadie en casa", "status_expired": "Vencida",

		"urgency_emergency": "Emergencia", "urgency_soon": "Pronto", "urgency_flexible": "Flexible",
		"texts_true": "Sí", "texts_false": "No",

		"deposit_due": "pendiente", "deposit_paid": "pagado", "deposit_refunded": "reembolsado", "deposit_kept": "retenido",
		"deposit_deducted": "descontado", "deposit_expired": "no pagado a tiempo", "deposit_cancelled": "cancelada antes de pagar",
		"simulated": "simulado",

		"ev_create": "Enviada", "ev_pay": "Depósito pagado", "ev_expire": "Vencida", "ev_accept": "Aceptada",
		"ev_decline": "Rechazada", "ev_spam": "Marcada como no auténtica", "ev_move": "Cambiada de horario", "ev_complete": "Hecha",
		"ev_no_show": "Nadie en casa", "ev_cancel": "Cancelada", "ev_remind": "Recordatorio enviado",
		"by_customer": "por la persona", "by_business": "por el negocio", "by_operator": "por Doorstep",
		"by_system": "por Doorstep",
	},
}
