-- reckon-lcreply.lua: a Wireshark dissector for reckon's ALC confirm/deny
-- message (the victim's reply to a hit event in Lee's advanced lag
-- compensation; layout in docs/wire-format.md, codec in
-- agents/proto/lcreply.c). 36 octets, big-endian: magic "RKLC", version,
-- verdict (1 confirm, 2 deny), flags (bit 0 provisional), body part, hit
-- id, victim entity, rendered server tick, pose x, y, yaw (float32) and
-- stance. Registered on UDP port 3001 (a preference) and as a heuristic
-- on every UDP datagram that starts with the magic.
--
--   tshark -X lua_script:deploy/wireshark/reckon-lcreply.lua -r FILE
--          -T fields -e reckon_lcreply.verdict -e reckon_lcreply.hit_id

local p = Proto("reckon_lcreply", "reckon ALC hit confirmation")

local verdicts = {[1] = "confirm", [2] = "deny (shot behind covers)"}
local parts = {[0] = "head", [1] = "torso", [2] = "legs"}
local stances = {[0] = "standing", [1] = "crouched"}

local f = {
	magic = ProtoField.string("reckon_lcreply.magic", "Magic"),
	version = ProtoField.uint8("reckon_lcreply.version", "Version"),
	verdict = ProtoField.uint8("reckon_lcreply.verdict", "Verdict",
		base.DEC, verdicts),
	flags = ProtoField.uint8("reckon_lcreply.flags", "Flags", base.HEX),
	provisional = ProtoField.bool("reckon_lcreply.provisional",
		"Provisional (appealable) hit", 8, nil, 0x01),
	part = ProtoField.uint8("reckon_lcreply.part", "Body part", base.DEC,
		parts),
	hit_id = ProtoField.uint32("reckon_lcreply.hit_id", "Hit id"),
	victim = ProtoField.uint16("reckon_lcreply.victim", "Victim entity"),
	reserved = ProtoField.uint16("reckon_lcreply.reserved", "Reserved"),
	tick = ProtoField.uint32("reckon_lcreply.rendered_tick",
		"Rendered server tick"),
	x = ProtoField.float("reckon_lcreply.x", "Victim x"),
	y = ProtoField.float("reckon_lcreply.y", "Victim y"),
	yaw = ProtoField.float("reckon_lcreply.yaw", "Victim yaw (deg)"),
	stance = ProtoField.uint8("reckon_lcreply.stance", "Stance", base.DEC,
		stances),
}
p.fields = {f.magic, f.version, f.verdict, f.flags, f.provisional, f.part,
	f.hit_id, f.victim, f.reserved, f.tick, f.x, f.y, f.yaw, f.stance}

local e_bad = ProtoExpert.new("reckon_lcreply.bad", "Malformed reply",
	expert.group.MALFORMED, expert.severity.ERROR)
p.experts = {e_bad}

local LEN = 36

local function dissect(buf, pinfo, tree)
	if buf:len() < 4 or buf(0, 4):string() ~= "RKLC" then
		return 0
	end
	pinfo.cols.protocol = "RKLC"
	local t = tree:add(p, buf(0, math.min(buf:len(), LEN)))
	if buf:len() ~= LEN then
		t:add_proto_expert_info(e_bad, "length is not 36")
		return buf:len()
	end
	t:add(f.magic, buf(0, 4))
	t:add(f.version, buf(4, 1))
	t:add(f.verdict, buf(5, 1))
	local ft = t:add(f.flags, buf(6, 1))
	ft:add(f.provisional, buf(6, 1))
	t:add(f.part, buf(7, 1))
	t:add(f.hit_id, buf(8, 4))
	t:add(f.victim, buf(12, 2))
	t:add(f.reserved, buf(14, 2))
	t:add(f.tick, buf(16, 4))
	t:add(f.x, buf(20, 4))
	t:add(f.y, buf(24, 4))
	t:add(f.yaw, buf(28, 4))
	t:add(f.stance, buf(32, 1))
	local v = buf(5, 1):uint()
	if buf(4, 1):uint() ~= 1 or (v ~= 1 and v ~= 2) or
	    buf(7, 1):uint() > 2 or buf(32, 1):uint() > 1 then
		t:add_proto_expert_info(e_bad, "bad version, verdict, part or stance")
	end
	pinfo.cols.info = string.format("%s hit %u (%s)",
		verdicts[v] or "?", buf(8, 4):uint(),
		parts[buf(7, 1):uint()] or "?")
	return LEN
end

function p.dissector(buf, pinfo, tree)
	return dissect(buf, pinfo, tree)
end

p.prefs.port = Pref.uint("UDP port", 3001, "UDP port of ALC replies")
DissectorTable.get("udp.port"):add(3001, p)

p:register_heuristic("udp", function(buf, pinfo, tree)
	return dissect(buf, pinfo, tree) > 0
end)
